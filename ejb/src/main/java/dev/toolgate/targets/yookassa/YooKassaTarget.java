package dev.toolgate.targets.yookassa;

import dev.toolgate.targets.Dispatch;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.Target;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.ConfigProvider;

/** The {@code yookassa} target: {@code payment.create} and {@code payment.refund}. */
@ApplicationScoped
public class YooKassaTarget implements Target {

    private YooKassaPayments payments; // null when this gateway has no YooKassa shop configured

    @PostConstruct
    void configure() {
        payments = YooKassaSettings.from(ConfigProvider.getConfig()).map(YooKassaPayments::new).orElse(null);
    }

    @Override
    public String system() {
        return "yookassa";
    }

    @Override
    public boolean configured() {
        return payments != null;
    }

    @Override
    public Outcome execute(Dispatch dispatch) {
        return payments.execute(dispatch);
    }

    @Override
    public Lookup lookup(Dispatch dispatch) {
        return payments.find(dispatch);
    }
}

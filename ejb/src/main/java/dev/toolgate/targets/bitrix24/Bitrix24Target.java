package dev.toolgate.targets.bitrix24;

import dev.toolgate.targets.Dispatch;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.Target;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.ConfigProvider;

/** The {@code bitrix24} target: {@code crm.deal.create} as a Bitrix24 deal. */
@ApplicationScoped
public class Bitrix24Target implements Target {

    private Bitrix24Deals deals; // null when this gateway has no Bitrix24 configured

    @PostConstruct
    void configure() {
        deals = Bitrix24Settings.from(ConfigProvider.getConfig()).map(Bitrix24Deals::new).orElse(null);
    }

    @Override
    public String system() {
        return "bitrix24";
    }

    @Override
    public boolean configured() {
        return deals != null;
    }

    @Override
    public Outcome execute(Dispatch dispatch) {
        return deals.create(dispatch);
    }

    @Override
    public Lookup lookup(Dispatch dispatch) {
        return deals.find(dispatch);
    }
}

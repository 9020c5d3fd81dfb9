package dev.toolgate.targets.onec;

import dev.toolgate.targets.Dispatch;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.Target;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.ConfigProvider;

/** The {@code 1c} target: {@code invoice.create} as a 1C OData document. */
@ApplicationScoped
public class OneCTarget implements Target {

    private OneCDocuments documents; // null when this gateway has no 1C configured

    @PostConstruct
    void configure() {
        documents = OneCSettings.from(ConfigProvider.getConfig()).map(OneCDocuments::new).orElse(null);
    }

    @Override
    public String system() {
        return "1c";
    }

    @Override
    public boolean configured() {
        return documents != null;
    }

    @Override
    public Outcome execute(Dispatch dispatch) {
        return documents.create(dispatch);
    }

    @Override
    public Lookup lookup(Dispatch dispatch) {
        return documents.find(dispatch);
    }
}

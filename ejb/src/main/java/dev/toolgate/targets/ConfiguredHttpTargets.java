package dev.toolgate.targets;

import dev.toolgate.canonical.OperationCatalog;
import dev.toolgate.targets.http.GenericHttpAdapter;
import dev.toolgate.targets.http.HttpTargetSettings;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The catalog targets this gateway reaches through the generic HTTP adapter
 * ({@code toolgate.target.<system>.adapter=http}) instead of their coded adapter. A broken
 * description fails on first use with the setting it lacks, before anything is sent.
 */
@ApplicationScoped
public class ConfiguredHttpTargets {

    private final Map<String, Target> targets = new HashMap<>();

    @PostConstruct
    void configure() {
        Config config = ConfigProvider.getConfig();
        for (String system : OperationCatalog.targets()) {
            if (HttpTargetSettings.selected(config, system)) {
                GenericHttpAdapter adapter = new GenericHttpAdapter(HttpTargetSettings.from(config, system));
                targets.put(system, new Target() {
                    @Override
                    public String system() {
                        return system;
                    }

                    @Override
                    public boolean configured() {
                        return true;
                    }

                    @Override
                    public Outcome execute(Dispatch dispatch) {
                        return adapter.execute(dispatch);
                    }

                    @Override
                    public Lookup lookup(Dispatch dispatch) {
                        return adapter.find(dispatch);
                    }
                });
            }
        }
    }

    public Optional<Target> find(String system) {
        return Optional.ofNullable(targets.get(system));
    }
}

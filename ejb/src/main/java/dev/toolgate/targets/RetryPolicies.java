package dev.toolgate.targets;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Each target's retry policy ({@code toolgate.target.<system>.retry.*}); unset values take {@link RetryPolicy#DEFAULT}'s. */
@ApplicationScoped
public class RetryPolicies {

    private final Map<String, RetryPolicy> policies = new ConcurrentHashMap<>();

    public RetryPolicy of(String system) {
        return policies.computeIfAbsent(system, s -> read(ConfigProvider.getConfig(), s));
    }

    static RetryPolicy read(Config config, String system) {
        String prefix = "toolgate.target." + system + ".retry.";
        RetryPolicy defaults = RetryPolicy.DEFAULT;
        return new RetryPolicy(
                config.getOptionalValue(prefix + "max-attempts", Integer.class).orElse(defaults.maxAttempts()),
                Duration.ofMillis(config.getOptionalValue(prefix + "initial-delay-ms", Long.class).orElse(defaults.initialDelay().toMillis())),
                config.getOptionalValue(prefix + "multiplier", Double.class).orElse(defaults.multiplier()),
                Duration.ofMillis(config.getOptionalValue(prefix + "max-delay-ms", Long.class).orElse(defaults.maxDelay().toMillis())),
                config.getOptionalValue(prefix + "jitter", Boolean.class).orElse(defaults.jitter()));
    }
}

package dev.toolgate.targets;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The retry policy of each target, from MicroProfile Config
 * ({@code toolgate.target.<system>.retry.max-attempts}, {@code .initial-delay-ms}, {@code .multiplier},
 * {@code .max-delay-ms}, {@code .jitter}); unset values take the seed's defaults.
 */
@ApplicationScoped
public class RetryPolicies {

    private final Map<String, RetryPolicy> policies = new ConcurrentHashMap<>();

    public RetryPolicy of(String system) {
        return policies.computeIfAbsent(system, s -> read(ConfigProvider.getConfig(), s));
    }

    static RetryPolicy read(Config config, String system) {
        String prefix = "toolgate.target." + system + ".retry.";
        RetryPolicy seed = RetryPolicy.SEED;
        return new RetryPolicy(
                config.getOptionalValue(prefix + "max-attempts", Integer.class).orElse(seed.maxAttempts()),
                Duration.ofMillis(config.getOptionalValue(prefix + "initial-delay-ms", Long.class).orElse(seed.initialDelay().toMillis())),
                config.getOptionalValue(prefix + "multiplier", Double.class).orElse(seed.multiplier()),
                Duration.ofMillis(config.getOptionalValue(prefix + "max-delay-ms", Long.class).orElse(seed.maxDelay().toMillis())),
                config.getOptionalValue(prefix + "jitter", Boolean.class).orElse(seed.jitter()));
    }
}

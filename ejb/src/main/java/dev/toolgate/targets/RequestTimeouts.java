package dev.toolgate.targets;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Connect and read timeouts of one target; {@link #longest(String)} bounds how long a request under a lapsed lease may still run. */
public record RequestTimeouts(Duration connect, Duration read) {

    public static final long DEFAULT_CONNECT_MS = 2_000;
    public static final long DEFAULT_READ_MS = 10_000;

    /** Each target's longest request, read once: the reconcile claim asks for every due row. */
    private static final Map<String, Duration> LONGEST = new ConcurrentHashMap<>();

    public static RequestTimeouts of(Config config, String system) {
        String prefix = "toolgate.target." + system + "." + (AdapterSetting.genericHttp(config, system) ? "http." : "");
        return new RequestTimeouts(
                Duration.ofMillis(config.getOptionalValue(prefix + "connect-timeout-ms", Long.class).orElse(DEFAULT_CONNECT_MS)),
                Duration.ofMillis(config.getOptionalValue(prefix + "read-timeout-ms", Long.class).orElse(DEFAULT_READ_MS)));
    }

    public Duration longest() {
        return connect.plus(read);
    }

    public static Duration longest(String target) {
        return LONGEST.computeIfAbsent(target, t -> of(ConfigProvider.getConfig(), t).longest());
    }
}

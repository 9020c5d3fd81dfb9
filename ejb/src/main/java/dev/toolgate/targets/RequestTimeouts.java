package dev.toolgate.targets;

import org.eclipse.microprofile.config.Config;

import java.time.Duration;

/**
 * How long one request to a target may last from the gateway's side: connecting, then waiting for
 * the answer. The adapters use it for their HTTP client; the journal uses {@link #longest} to know
 * until when a request sent under a lease that ended may still be running.
 */
public record RequestTimeouts(Duration connect, Duration read) {

    public static final long DEFAULT_CONNECT_MS = 2_000;
    public static final long DEFAULT_READ_MS = 10_000;

    /** {@code toolgate.target.<system>.connect-timeout-ms} and {@code .read-timeout-ms} (under {@code .http.} for the generic adapter). */
    public static RequestTimeouts of(Config config, String system) {
        String prefix = "toolgate.target." + system + "." + (AdapterSetting.genericHttp(config, system) ? "http." : "");
        return new RequestTimeouts(
                Duration.ofMillis(config.getOptionalValue(prefix + "connect-timeout-ms", Long.class).orElse(DEFAULT_CONNECT_MS)),
                Duration.ofMillis(config.getOptionalValue(prefix + "read-timeout-ms", Long.class).orElse(DEFAULT_READ_MS)));
    }

    public Duration longest() {
        return connect.plus(read);
    }
}

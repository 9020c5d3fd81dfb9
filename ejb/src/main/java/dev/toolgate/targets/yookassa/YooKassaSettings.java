package dev.toolgate.targets.yookassa;

import dev.toolgate.targets.RequestTimeouts;
import dev.toolgate.targets.tls.TlsSettings;
import org.eclipse.microprofile.config.Config;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * Where and as whom to call YooKassa ({@code toolgate.target.yookassa.*}).
 *
 * @param keyWindow how long to trust YooKassa's Idempotence-Key (kept 24 h): 23 h, so a re-send near the edge is looked up first
 */
public record YooKassaSettings(URI url, String shopId, String secretKey, Duration connectTimeout, Duration readTimeout,
                               Duration keyWindow, String returnUrl, TlsSettings tls) {

    private static final String PREFIX = "toolgate.target.yookassa.";

    public static Optional<YooKassaSettings> from(Config config) {
        return config.getOptionalValue(PREFIX + "url", String.class).map(url -> new YooKassaSettings(
                URI.create(url.endsWith("/") ? url : url + "/"),
                config.getValue(PREFIX + "shop-id", String.class),
                config.getValue(PREFIX + "secret-key", String.class),
                RequestTimeouts.of(config, "yookassa").connect(),
                RequestTimeouts.of(config, "yookassa").read(),
                Duration.ofHours(config.getOptionalValue(PREFIX + "key-window-hours", Long.class).orElse(23L)),
                config.getOptionalValue(PREFIX + "return-url", String.class).orElse(null),
                TlsSettings.from(config, "yookassa")));
    }

    /** Never prints the secret key: settings end up in logs when something goes wrong. */
    @Override
    public String toString() {
        return "YooKassaSettings[url=" + url + ", shopId=" + shopId + "]";
    }
}

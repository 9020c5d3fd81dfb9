package dev.toolgate.targets.bitrix24;

import dev.toolgate.targets.RequestTimeouts;
import dev.toolgate.targets.tls.TlsSettings;
import org.eclipse.microprofile.config.Config;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * The portal's webhook; its URL holds the secret, so {@link #toString()} shows only the host.
 *
 * @param originatorId our ORIGINATOR_ID; with ORIGIN_ID (the key) it names our deals
 * @param lostStage    where {@code crm.deal.lose} moves a deal: {@code LOSE}, or {@code C<N>:LOSE} in pipeline N
 */
public record Bitrix24Settings(URI url, String originatorId, String lostStage, Duration connectTimeout, Duration readTimeout,
                               TlsSettings tls) {

    private static final String PREFIX = "toolgate.target.bitrix24.";

    public static Optional<Bitrix24Settings> from(Config config) {
        return config.getOptionalValue(PREFIX + "url", String.class).map(url -> new Bitrix24Settings(
                URI.create(url.endsWith("/") ? url : url + "/"),
                config.getOptionalValue(PREFIX + "originator-id", String.class).orElse("agent-gw"),
                config.getOptionalValue(PREFIX + "lost-stage", String.class).orElse("LOSE"),
                RequestTimeouts.of(config, "bitrix24").connect(),
                RequestTimeouts.of(config, "bitrix24").read(),
                TlsSettings.from(config, "bitrix24")));
    }

    @Override
    public String toString() {
        return "Bitrix24Settings[host=" + url.getHost() + ", originatorId=" + originatorId + ", lostStage=" + lostStage + "]";
    }
}

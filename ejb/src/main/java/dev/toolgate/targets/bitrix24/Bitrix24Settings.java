package dev.toolgate.targets.bitrix24;

import dev.toolgate.targets.RequestTimeouts;
import dev.toolgate.targets.tls.TlsSettings;
import org.eclipse.microprofile.config.Config;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * Where the portal's webhook is. The URL holds the webhook's secret in its path, so it is treated as a
 * credential: {@link #toString()} shows only the host.
 *
 * @param url          {@code https://<portal>/rest/<user>/<secret>/}
 * @param originatorId our "data source id" in ORIGINATOR_ID; with ORIGIN_ID (the key) it names our deals
 * @param lostStage    the STAGE_ID that {@code crm.deal.lose} moves a deal to: {@code LOSE} in the general
 *                     pipeline; a portal whose deals live in pipeline N sets {@code C<N>:LOSE}
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

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
 * @param lookupBatch  how many deal keys the reconcile job looks up in one {@code crm.deal.list} ({@code lookup-batch},
 *                     default {@value #LOOKUP_BATCH}, at most a list's page, {@value #PAGE}; 1 asks for each alone)
 */
public record Bitrix24Settings(URI url, String originatorId, String lostStage, Duration connectTimeout, Duration readTimeout,
                               TlsSettings tls, int lookupBatch) {

    static final int LOOKUP_BATCH = 20;
    /** The rows a {@code crm.deal.list} page holds, whatever is asked. */
    static final int PAGE = 50;

    private static final String PREFIX = "toolgate.target.bitrix24.";

    public static Optional<Bitrix24Settings> from(Config config) {
        return config.getOptionalValue(PREFIX + "url", String.class).map(url -> new Bitrix24Settings(
                URI.create(url.endsWith("/") ? url : url + "/"),
                config.getOptionalValue(PREFIX + "originator-id", String.class).orElse("agent-gw"),
                config.getOptionalValue(PREFIX + "lost-stage", String.class).orElse("LOSE"),
                RequestTimeouts.of(config, "bitrix24").connect(),
                RequestTimeouts.of(config, "bitrix24").read(),
                TlsSettings.from(config, "bitrix24"),
                Math.min(PAGE, Math.max(1, config.getOptionalValue(PREFIX + "lookup-batch", Integer.class).orElse(LOOKUP_BATCH)))));
    }

    @Override
    public String toString() {
        return "Bitrix24Settings[host=" + url.getHost() + ", originatorId=" + originatorId + ", lostStage=" + lostStage + "]";
    }
}

package dev.toolgate.targets.onec;

import dev.toolgate.targets.RequestTimeouts;
import dev.toolgate.targets.tls.TlsSettings;
import org.eclipse.microprofile.config.Config;

import java.net.URI;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Where and how to reach one 1C infobase, from MicroProfile Config ({@code toolgate.target.1c.*}).
 *
 * @param timeZone    the infobase's zone: 1C dates carry no offset
 * @param lookupBatch how many invoice keys the reconcile job looks up in one request ({@code lookup-batch}, default
 *                    {@value #LOOKUP_BATCH}; 1 asks for each alone)
 */
public record OneCSettings(URI url, String user, String password, String documentSet, String keyRequisite,
                           String organizationKey, Map<String, String> currencyKeys, ZoneId timeZone,
                           Duration connectTimeout, Duration readTimeout, TlsSettings tls, int lookupBatch) {

    static final int LOOKUP_BATCH = 20;

    private static final String PREFIX = "toolgate.target.1c.";

    public static Optional<OneCSettings> from(Config config) {
        return config.getOptionalValue(PREFIX + "url", String.class).map(url -> new OneCSettings(
                URI.create(url.endsWith("/") ? url : url + "/"),
                config.getOptionalValue(PREFIX + "user", String.class).orElse(""),
                config.getOptionalValue(PREFIX + "password", String.class).orElse(""),
                config.getOptionalValue(PREFIX + "document", String.class).orElse("Document_СчетНаОплатуПокупателю"),
                config.getOptionalValue(PREFIX + "key-requisite", String.class).orElse("tg_OperationKey"),
                config.getValue(PREFIX + "organization-key", String.class),
                currencies(config.getOptionalValue(PREFIX + "currency-keys", String.class).orElse("")),
                ZoneId.of(config.getOptionalValue(PREFIX + "time-zone", String.class).orElse("Europe/Moscow")),
                RequestTimeouts.of(config, "1c").connect(),
                RequestTimeouts.of(config, "1c").read(),
                TlsSettings.from(config, "1c"),
                Math.max(1, config.getOptionalValue(PREFIX + "lookup-batch", Integer.class).orElse(LOOKUP_BATCH))));
    }

    /** {@code RUB=<guid>;USD=<guid>}: semicolons, because MicroProfile Config splits lists on commas. */
    static Map<String, String> currencies(String spec) {
        return Arrays.stream(spec.split(";")).map(String::trim).filter(s -> s.contains("="))
                .map(s -> s.split("=", 2))
                .collect(Collectors.toUnmodifiableMap(p -> p[0].trim().toUpperCase(), p -> p[1].trim()));
    }

    /** Never prints the password: settings end up in logs when something goes wrong. */
    @Override
    public String toString() {
        return "OneCSettings[url=" + url + ", user=" + user + ", documentSet=" + documentSet + ", keyRequisite="
                + keyRequisite + "]";
    }
}

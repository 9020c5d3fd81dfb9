package dev.toolgate.platform;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonLogProviderTest {

    private static final String ODL = "com.sun.enterprise.server.logging.ODLLogFormatter";

    @Test
    void warnsWhenPayarasJsonFormatterWritesTheLogAndNoProviderIsNamed() {
        String advice = JsonLogProvider.advice(List.of(JsonLogProvider.PAYARA_JSON_FORMATTER), null).orElseThrow();
        assertTrue(advice.contains("-Djakarta.json.provider=org.eclipse.parsson.JsonProviderImpl"), advice);
        assertTrue(JsonLogProvider.advice(List.of(ODL, JsonLogProvider.PAYARA_JSON_FORMATTER), " ").isPresent());
    }

    @Test
    void saysNothingOnceAProviderIsNamed() {
        assertEquals(java.util.Optional.empty(),
                JsonLogProvider.advice(List.of(JsonLogProvider.PAYARA_JSON_FORMATTER), JsonLogProvider.PARSSON));
    }

    @Test
    void saysNothingForAnyOtherFormatter() {
        assertEquals(java.util.Optional.empty(), JsonLogProvider.advice(List.of(ODL, "org.jboss.logmanager.formatters.JsonFormatter"), null));
        assertEquals(java.util.Optional.empty(), JsonLogProvider.advice(List.of(), null));
    }
}

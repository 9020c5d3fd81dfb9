package dev.toolgate.it.deployment;

import dev.toolgate.it.support.AppServer;
import dev.toolgate.it.support.PayaraMicro;
import jakarta.json.JsonObject;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The WAR on Payara Micro 7 (Jakarta EE 11, on Java 21 or newer), put through the suite every server passes, set up as
 * docs/operations.md says for Micro: the journal on the WAR's own datasource (Micro reads {@code ${ENV=…}} in a
 * post-boot file when it reads the file, so the URL's colons break {@code deploy/payara/journal-pool.asadmin}'s
 * property list there), its log as JSON on standard output by {@code deploy/payara-micro/logging.properties}
 * ({@code --logproperties}), and tracing turned on for the application as docs/telemetry.md says for Payara 7.
 */
class WarOnPayaraMicro7IT extends EarSuite {

    @Override
    AppServer deployed(String journalUrl) throws Exception {
        return PayaraMicro.start(serverName(), Path.of(System.getProperty("toolgate.runtime.micro7")), 21,
                onPayara7(environment(journalUrl, "")), List.of(), DEPLOY.resolve("payara-micro/logging.properties"));
    }

    /**
     * Tracing on as Payara 7 needs it: OTEL_SDK_DISABLED=false would turn on the server-wide SDK instead of the
     * application's (which takes Toolgate's exporter wrapper), and Payara 7 exports no spans unless
     * OTEL_TRACES_EXPORTER names an exporter.
     */
    private static Map<String, String> onPayara7(Map<String, String> environment) {
        Map<String, String> payara7 = new LinkedHashMap<>(environment);
        payara7.put("TOOLGATE_OTEL_SDK_DISABLED", payara7.remove("OTEL_SDK_DISABLED"));
        payara7.put("OTEL_TRACES_EXPORTER", "otlp");
        return payara7;
    }

    @Override
    String serverName() {
        return "payara-micro-7";
    }

    @Override
    JsonObject gatewayFields(JsonObject logLine) {
        return logLine; // Payara lifts the fields to the top level
    }

    @Override
    String journalPool() {
        return "toolgate"; // the ApplicationName of the WAR's own datasource
    }

    @Override
    int journalPoolSize() {
        return 32; // its maximum (JournalSchema's @DataSourceDefinition)
    }
}

package dev.toolgate.it.deployment;

import dev.toolgate.it.support.AppServer;
import dev.toolgate.it.support.PayaraMicro;
import jakarta.json.JsonObject;

import java.nio.file.Path;
import java.util.List;

/**
 * The WAR on Payara Micro 7 (Jakarta EE 11, on Java 21 or newer), put through the suite every server passes, set up as
 * docs/operations.md says for Micro: the journal on the WAR's own datasource (Micro reads {@code ${ENV=…}} in a
 * post-boot file when it reads the file, so the URL's colons break {@code deploy/payara/journal-pool.asadmin}'s
 * property list there), its log as JSON by {@code deploy/payara/json-logs.asadmin} as a post-boot file.
 */
class WarOnPayaraMicro7IT extends EarSuite {

    @Override
    AppServer deployed(String journalUrl) throws Exception {
        return PayaraMicro.start(serverName(), Path.of(System.getProperty("toolgate.runtime.micro7")), 21,
                environment(journalUrl, ""), List.of(DEPLOY.resolve("payara/json-logs.asadmin")));
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

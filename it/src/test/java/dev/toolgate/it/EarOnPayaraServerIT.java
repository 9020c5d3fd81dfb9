package dev.toolgate.it;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.nio.file.Path;

/** The EAR on Payara Server 6 from Maven Central, deployed with asadmin as the README says. */
class EarOnPayaraServerIT extends EarSuite {

    private static String journalUrl;
    private static PayaraServer server;

    @BeforeAll
    static void deploy() throws Exception {
        journalUrl = TestStack.newDatabase("ear");
        server = PayaraServer.start(Path.of(System.getProperty("payara.server.home")),
                Path.of("target", "payara-domains").toAbsolutePath(), TestStack.runtime().resolve("postgresql.jar"),
                environment(journalUrl, "jdbc/toolgate"));
        server.run(DEPLOY.resolve("payara/journal-pool.asadmin"));
        server.run(DEPLOY.resolve("payara/json-logs.asadmin"));
        server.deploy(TestStack.runtime().resolve("toolgate.ear"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Override
    String journalUrl() {
        return journalUrl;
    }

    @Override
    Path serverLog() {
        return server.serverLog();
    }

    @Override
    JsonObject gatewayFields(JsonObject logLine) {
        return logLine; // Payara lifts the fields to the top level
    }

    @Override
    String baseUrl() {
        return server.baseUrl();
    }
}

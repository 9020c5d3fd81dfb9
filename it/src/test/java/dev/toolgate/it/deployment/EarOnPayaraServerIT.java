package dev.toolgate.it.deployment;

import dev.toolgate.it.support.AppServer;
import dev.toolgate.it.support.PayaraServer;
import dev.toolgate.it.support.TestStack;
import jakarta.json.JsonObject;

import java.nio.file.Path;

/** The EAR on Payara Server 6 from Maven Central, deployed with asadmin as docs/operations.md says. */
class EarOnPayaraServerIT extends EarSuite {

    @Override
    AppServer deployed(String journalUrl) throws Exception {
        PayaraServer server = PayaraServer.start(Path.of(System.getProperty("payara.server.home")),
                Path.of("target", "payara-domains").toAbsolutePath(), TestStack.runtime().resolve("postgresql.jar"),
                environment(journalUrl, "jdbc/toolgate"));
        server.run(DEPLOY.resolve("payara/journal-pool.asadmin"));
        server.run(DEPLOY.resolve("payara/json-logs.asadmin"));
        server.deploy(TestStack.runtime().resolve("toolgate.ear"));
        return server;
    }

    @Override
    String serverName() {
        return "payara-server";
    }

    @Override
    JsonObject gatewayFields(JsonObject logLine) {
        return logLine; // Payara lifts the fields to the top level
    }
}

package dev.toolgate.it.deployment;

import dev.toolgate.it.support.AppServer;
import dev.toolgate.it.support.PayaraServer;
import dev.toolgate.it.support.TestStack;
import jakarta.json.JsonObject;

import java.nio.file.Path;
import java.util.List;

/** The EAR on Payara Server 6 from Maven Central, deployed with asadmin as docs/operations.md says. */
class EarOnPayaraServerIT extends EarSuite {

    @Override
    AppServer deployed(String journalUrl) throws Exception {
        PayaraServer server = PayaraServer.start(Path.of(System.getProperty("payara.server.home")),
                Path.of("target", "payara-domains").toAbsolutePath(), TestStack.runtime().resolve("postgresql.jar"),
                environment(journalUrl, "jdbc/toolgate"));
        // the README's steps in its order, in one asadmin multimode run rather than an asadmin JVM each
        server.runInOneSession(List.of(PayaraServer.script(DEPLOY.resolve("payara/journal-pool.asadmin")),
                PayaraServer.script(DEPLOY.resolve("payara/json-logs.asadmin")),
                PayaraServer.deployCommand(TestStack.runtime().resolve("toolgate.ear"))));
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

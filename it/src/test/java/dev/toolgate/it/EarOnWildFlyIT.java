package dev.toolgate.it;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.nio.file.Path;

/**
 * The same EAR on WildFly 39 from Maven Central, with EclipseLink installed as the
 * {@code org.eclipse.persistence} module by the build, deployed with jboss-cli as the README says.
 */
class EarOnWildFlyIT extends EarSuite {

    private static String journalUrl;
    private static WildFlyServer server;

    @BeforeAll
    static void deploy() throws Exception {
        journalUrl = TestStack.newDatabase("wildfly");
        server = WildFlyServer.start(Path.of(System.getProperty("wildfly.home")),
                Path.of("target", "wildfly-base").toAbsolutePath(), environment(journalUrl, "java:jboss/datasources/toolgate"));
        server.deploy(TestStack.runtime().resolve("postgresql.jar"));
        server.run(DEPLOY.resolve("wildfly/journal-datasource.cli"));
        server.run(DEPLOY.resolve("wildfly/json-logs.cli"));
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
        return logLine.getJsonObject("mdc");
    }

    @Override
    String baseUrl() {
        return server.baseUrl();
    }
}

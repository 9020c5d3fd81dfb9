package dev.toolgate.it.deployment;

import dev.toolgate.it.support.AppServer;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.it.support.WildFlyServer;
import jakarta.json.JsonObject;

import java.nio.file.Path;

/**
 * The same EAR on WildFly 39 from Maven Central, with EclipseLink installed as the
 * {@code org.eclipse.persistence} module by the build, deployed with jboss-cli as docs/operations.md says, on
 * the configuration {@code telemetry.cli} makes (tracing installed, off as the environment leaves it) and
 * {@code console.cli} (people signed in by the console's OpenID Connect mechanism accepted as they come).
 */
class EarOnWildFlyIT extends EarSuite {

    @Override
    AppServer deployed(String journalUrl) throws Exception {
        WildFlyServer server = WildFlyServer.start(Path.of(System.getProperty("wildfly.home")),
                Path.of("target", "wildfly-base").toAbsolutePath(), environment(journalUrl, "java:jboss/datasources/toolgate"));
        server.run(DEPLOY.resolve("wildfly/telemetry.cli"));
        server.deploy(TestStack.runtime().resolve("postgresql.jar"));
        server.run(DEPLOY.resolve("wildfly/journal-datasource.cli"));
        server.run(DEPLOY.resolve("wildfly/json-logs.cli"));
        server.run(DEPLOY.resolve("wildfly/console.cli"));
        server.deploy(TestStack.runtime().resolve("toolgate.ear"));
        return server;
    }

    @Override
    String serverName() {
        return "wildfly";
    }

    @Override
    JsonObject gatewayFields(JsonObject logLine) {
        return logLine.getJsonObject("mdc"); // WildFly's json-formatter prints the MDC as one object
    }
}

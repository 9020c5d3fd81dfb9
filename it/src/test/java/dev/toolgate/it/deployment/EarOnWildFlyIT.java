package dev.toolgate.it.deployment;

import dev.toolgate.it.support.AppServer;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.it.support.WildFlyServer;
import jakarta.json.JsonObject;

import java.nio.file.Path;
import java.util.List;

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
        // the README's steps in its order, in one jboss-cli session rather than a jboss-cli JVM each
        server.runInOneSession(List.of(
                WildFlyServer.script(DEPLOY.resolve("wildfly/telemetry.cli")),
                WildFlyServer.deployCommand(TestStack.runtime().resolve("postgresql.jar")),
                WildFlyServer.script(DEPLOY.resolve("wildfly/journal-datasource.cli")),
                WildFlyServer.script(DEPLOY.resolve("wildfly/json-logs.cli")),
                WildFlyServer.script(DEPLOY.resolve("wildfly/console.cli")),
                WildFlyServer.deployCommand(TestStack.runtime().resolve("toolgate.ear"))));
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

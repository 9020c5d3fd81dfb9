package dev.toolgate.it;

import dev.toolgate.launcher.LocalStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.nio.file.Path;
import java.util.Map;

/**
 * The same EAR on WildFly 39 from Maven Central, with EclipseLink installed as the
 * {@code org.eclipse.persistence} module by the build, deployed with jboss-cli as the README says.
 */
class EarOnWildFlyIT extends EarSuite {

    private static WildFlyServer server;

    @BeforeAll
    static void deploy() throws Exception {
        Map<String, String> config = TestStack.configFor(TestStack.newDatabase("wildfly"));
        config.put("toolgate.reconcile.interval-seconds", "0"); // the test starts the run itself
        server = WildFlyServer.start(Path.of(System.getProperty("wildfly.home")),
                Path.of("target", "wildfly-base").toAbsolutePath(), LocalStack.asEnvironment(config));
        server.deploy(TestStack.runtime().resolve("toolgate.ear"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Override
    String baseUrl() {
        return server.baseUrl();
    }
}

package dev.toolgate.it;

import dev.toolgate.launcher.LocalStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.nio.file.Path;
import java.util.Map;

/** The EAR on Payara Server 6 from Maven Central, deployed with asadmin as the README says. */
class EarOnPayaraServerIT extends EarSuite {

    private static PayaraServer server;

    @BeforeAll
    static void deploy() throws Exception {
        Map<String, String> config = TestStack.configFor(TestStack.newDatabase("ear"));
        config.put("toolgate.reconcile.interval-seconds", "0"); // the test starts the run itself
        server = PayaraServer.start(Path.of(System.getProperty("payara.server.home")),
                Path.of("target", "payara-domains").toAbsolutePath(), LocalStack.asEnvironment(config));
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

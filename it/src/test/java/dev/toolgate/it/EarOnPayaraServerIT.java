package dev.toolgate.it;

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
    String baseUrl() {
        return server.baseUrl();
    }
}

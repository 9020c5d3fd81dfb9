package dev.toolgate.it.deployment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.it.support.WildFlyServer;
import dev.toolgate.launcher.LocalStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The zero-setup deployment on WildFly: no server datasource, only {@code TOOLGATE_DB_URL} and
 * friends in the environment. WildFly hands the EAR's {@code @DataSourceDefinition} its
 * {@code ${MPCONFIG=…}} values unresolved, so this is the path where {@code JournalDataSource} must
 * read the settings itself (Payara resolves them: the Micro suites cover it there).
 */
class EarOnWildFlyWithItsOwnDataSourceIT {

    private static String journalUrl;
    private static WildFlyServer server;

    @BeforeAll
    static void deploy() throws Exception {
        journalUrl = TestStack.newDatabase("wildfly_own");
        Map<String, String> config = TestStack.configFor(journalUrl);
        config.put("toolgate.reconcile.interval-seconds", "0");
        server = WildFlyServer.start(Path.of(System.getProperty("wildfly.home")),
                Path.of("target", "wildfly-own-base").toAbsolutePath(), LocalStack.asEnvironment(config));
        server.run(EarSuite.DEPLOY.resolve("wildfly/telemetry.cli"));
        server.deploy(TestStack.runtime().resolve("toolgate.ear"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void createsOnceOnTheEarsOwnDataSource() throws Exception {
        Agent agent = new Agent(server.baseUrl());
        String key = "test:invoice.create:ear-own-" + UUID.randomUUID() + ":v1";

        Agent.Answer first = agent.submit(key, Agent.invoice("order-own-1", 4200));
        Agent.Answer again = agent.submit(key, Agent.invoice("order-own-1", 4200));

        assertEquals(201, first.status(), first.body());
        assertEquals(first.body(), again.body());
        assertEquals(List.of(first.json().getString("target_object_id")), TestStack.targets().effects("1c", Agent.downstream(key)));
        Map<String, Integer> sessions = EarSuite.sessionsByApplication(journalUrl);
        assertEquals(null, sessions.get("toolgate-pool"), sessions.toString());
        assertEquals(true, sessions.getOrDefault("toolgate", 0) > 0, "the EAR's own datasource carries the journal: " + sessions);
    }
}

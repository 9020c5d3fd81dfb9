package dev.toolgate.it.deployment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.Await;
import dev.toolgate.it.support.Readiness;
import dev.toolgate.it.support.RestartablePostgres;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.it.support.WildFlyServer;
import dev.toolgate.launcher.LocalStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The zero-setup deployment on WildFly: no server datasource, only {@code TOOLGATE_DB_URL} and
 * friends in the environment. WildFly hands the EAR's {@code @DataSourceDefinition} its
 * {@code ${MPCONFIG=…}} values unresolved, so this is the path where {@code JournalDataSource} must
 * read the settings itself (Payara resolves them: the Micro suites cover it there). It is also the path where
 * WildFly's pool does not validate connections (it builds an {@code @DataSourceDefinition}'s pool without), so
 * that the journal's connections check themselves when the pool hands them out ({@code ReopeningConnection}):
 * the journal's PostgreSQL, of this suite's own, is restarted last.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EarOnWildFlyWithItsOwnDataSourceIT {

    private static RestartablePostgres journal;
    private static String journalUrl;
    private static WildFlyServer server;

    @BeforeAll
    static void deploy() throws Exception {
        journal = RestartablePostgres.start("wildfly_own");
        journalUrl = journal.jdbcUrl();
        Map<String, String> config = TestStack.configFor(journalUrl);
        config.put("toolgate.reconcile.interval-seconds", "0");
        server = WildFlyServer.start(Path.of(System.getProperty("wildfly.home")),
                Path.of("target", "wildfly-own-base").toAbsolutePath(), LocalStack.asEnvironment(config));
        server.runInOneSession(List.of(WildFlyServer.script(EarSuite.DEPLOY.resolve("wildfly/telemetry.cli")),
                WildFlyServer.deployCommand(TestStack.runtime().resolve("toolgate.ear"))));
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            if (journal != null) {
                journal.close();
            }
        }
    }

    @Test
    @Order(1)
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

    /**
     * The journal's PostgreSQL stopped while nobody calls and started again on the same data directory and port:
     * readiness UP within 5 s of PostgreSQL accepting connections, an agent served, the caller cache's listener back.
     */
    @Test
    @Order(2)
    void comesBackByItselfWhenTheJournalsPostgresRestarts() throws Exception {
        Agent agent = new Agent(server.baseUrl());
        assertEquals(201, agent.submit("test:invoice.create:ear-own-restart-" + UUID.randomUUID() + ":v1",
                Agent.invoice("order-own-restart-1", 900)).status(), "the journal answers before the restart");
        Await.await(() -> journal.listeners() > 0, "the caller cache's listener on the journal", Duration.ofSeconds(30));

        long accepting = journal.restartAfter(Duration.ofSeconds(2));
        Readiness.Recovery recovery = Readiness.upAfter(server.baseUrl(), accepting, Duration.ofSeconds(60));
        System.out.printf("wildfly, the EAR's own datasource, after a PostgreSQL restart: readiness %s after %d ms, slowest probe %d ms%n",
                recovery.statuses(), recovery.readyAfterMillis(), recovery.slowestProbeMillis());

        recovery.assertUpInTime();
        Agent.Answer served = agent.submit("test:invoice.create:ear-own-restart-" + UUID.randomUUID() + ":v1",
                Agent.invoice("order-own-restart-2", 900));
        assertEquals(201, served.status(), served.body());
        Await.await(() -> journal.listeners() > 0, "the caller cache's listener back on the journal", Duration.ofSeconds(45));
    }
}

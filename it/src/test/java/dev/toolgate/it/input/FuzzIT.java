package dev.toolgate.it.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.HostileBodies;
import dev.toolgate.it.support.Lane;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends {@code fuzz.size} (10,000) generated bodies, well-formed and hostile, to a gateway on Payara
 * Micro and checks the boundary: no 5xx ever, every hostile body refused with a 4xx before anything is
 * stored, every well-formed one accepted, and the journal holding a row for exactly the accepted keys.
 * Reproducible: {@code -Dfuzz.seed=<the printed seed>}.
 */
@Lane(2)
class FuzzIT {

    private static final String DATABASE = "fuzz";
    /** A few callers at once, as agents would: enough to keep the gateway busy on two cores. */
    private static final int THREADS = 6;

    private static GatewayProcess gateway;

    @BeforeAll
    static void start() throws Exception {
        Map<String, String> config = TestStack.configFor(TestStack.newDatabase(DATABASE));
        // the limiter is not under test here: 10,000 calls from one principal would otherwise be mostly 429s
        config.put("toolgate.rate-limit.per-second", "100000");
        config.put("toolgate.rate-limit.burst", "100000");
        gateway = TestStack.startGateway(config, "fuzz-gateway").awaitReady();
    }

    @AfterAll
    static void stop() throws Exception {
        TestStack.discard(gateway);
    }

    @Test
    void refusesEveryHostileBodyWithA4xxAndJournalsOnlyTheAccepted() throws Exception {
        long seed = Long.getLong("fuzz.seed", (long) (Math.random() * Integer.MAX_VALUE));
        int size = Integer.getInteger("fuzz.size", 10_000);
        System.out.println("fuzz seed " + seed + " (-Dfuzz.seed=" + seed + " repeats this run)");
        HostileBodies bodies = new HostileBodies(seed);
        List<HostileBodies.Case> cases = new ArrayList<>();
        for (int n = 0; n < size; n++) {
            cases.add(bodies.next(n));
        }
        long rowsBefore = TestStack.journalRows(DATABASE);
        long started = System.nanoTime();
        int[] statuses = send(cases);
        System.out.printf("fuzz seed %d: %d bodies in %.1f s from %d callers%n", seed, size, (System.nanoTime() - started) / 1e9, THREADS);
        Set<String> journaled = journaledKeys();

        Tally tally = new Tally();
        for (int i = 0; i < cases.size(); i++) {
            tally.count(cases.get(i), statuses[i], journaled);
        }
        System.out.println(tally.line(cases.size(), TestStack.journalRows(DATABASE) - rowsBefore == tally.accepted && tally.unexpected.isEmpty()));
        assertEquals(0, tally.serverErrors, "5xx answers: " + tally.unexpected);
        assertTrue(tally.unexpected.isEmpty(), "answers other than expected: " + tally.unexpected);
        assertEquals(tally.accepted, TestStack.journalRows(DATABASE) - rowsBefore, "the journal grew by exactly the accepted operations");
    }

    private static int[] send(List<HostileBodies.Case> cases) throws InterruptedException {
        int[] statuses = new int[cases.size()];
        AtomicInteger next = new AtomicInteger();
        ExecutorService callers = Executors.newFixedThreadPool(THREADS);
        for (int t = 0; t < THREADS; t++) {
            String principal = t % 2 == 0 ? "agent-a" : "agent-b";
            callers.submit(() -> {
                Agent agent = new Agent(gateway.baseUrl(), principal);
                for (int i = next.getAndIncrement(); i < cases.size(); i = next.getAndIncrement()) {
                    HostileBodies.Case c = cases.get(i);
                    statuses[i] = agent.send(agent.operations().header("Idempotency-Key", c.key())
                            .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(c.body()))).status();
                }
            });
        }
        callers.shutdown();
        assertTrue(callers.awaitTermination(5, TimeUnit.MINUTES), "the fuzz run did not finish");
        return statuses;
    }

    private static Set<String> journaledKeys() throws SQLException {
        Set<String> keys = new HashSet<>();
        try (Connection c = TestStack.connect(DATABASE);
             PreparedStatement select = c.prepareStatement("SELECT operation_key FROM agent_operation_log WHERE operation_key LIKE 'fuzz-%'");
             ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                keys.add(rows.getString(1));
            }
        }
        return keys;
    }

    /** What the run got back, by outcome, and every answer that was not the one its case calls for. */
    private static final class Tally {
        int refused;
        int accepted;
        int rateLimited;
        int serverErrors;
        final Map<String, String> unexpected = new TreeMap<>();

        void count(HostileBodies.Case c, int status, Set<String> journaled) {
            boolean stored = journaled.contains(c.key());
            if (status >= 500) {
                serverErrors++;
            }
            if (status == 429) {
                rateLimited++;
            } else if (c.valid() && status >= 200 && status < 300 && stored) {
                accepted++;
            } else if (!c.valid() && status >= 400 && status < 500 && !stored) {
                refused++;
            } else if (unexpected.size() < 20) {
                unexpected.put(c.key(), c.kind() + " answered " + status + (stored ? ", journaled" : ", not journaled"));
            }
        }

        String line(int sent, boolean rowsMatch) {
            return "fuzz: " + sent + " sent, " + refused + " refused 4xx, " + accepted + " accepted, " + serverErrors + "×500, "
                    + (rateLimited > 0 ? rateLimited + "×429, " : "")
                    + (rowsMatch ? "journal rows only for accepted" : "journal rows DO NOT match the accepted keys");
        }
    }
}

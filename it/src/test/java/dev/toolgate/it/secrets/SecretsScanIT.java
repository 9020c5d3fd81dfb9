package dev.toolgate.it.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.Credentials;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.simulator.Simulators;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * No token, admin secret, target credential, card number or personal INN sent to a gateway reaches a
 * journal (operations, events, principals), a gateway's log or a span it exports. {@link SecretsSent} sends each of
 * them through a gateway process and journal of its own that traces to a receiver in the test, on the paths that log
 * most (an unknown outcome and its look-up, a retried call, an approval, refusals); this suite then scans every journal
 * on the run's PostgreSQL, every gateway log under target/ and those spans. In a full run the sending is done in a lane
 * beside the other suites ({@link SecretsSentIT}) and this suite, last and alone (junit-platform.properties), only
 * reads — what it sent and what every other suite left; alone it sends first, then scans what it sent.
 */
@Order(Integer.MAX_VALUE)
@Isolated // after every lane has finished (junit-platform.properties)
class SecretsScanIT {

    /** The rolling hash's base ({@link #occurring}): a prime above every char value. */
    private static final long BASE = 1_000_003;

    @Test
    void noSecretReachedTheJournalsOrTheLogs() throws Exception {
        String spans = SecretsSent.spans(); // sent by SecretsSentIT in a full run; alone, now
        List<String> secrets = new ArrayList<>(Credentials.ISSUED);
        secrets.add(TestStack.adminToken());
        secrets.add(Simulators.ONE_C_PASSWORD);
        secrets.add(Simulators.YOOKASSA_SECRET_KEY);
        secrets.add(Simulators.BITRIX24_SECRET);
        secrets.add(Agent.PERSON_INN); // personal data declared sensitive: never stored
        for (String card : SensitiveDataIT.TEST_CARDS) {
            secrets.add(card);
            secrets.add(card.replace(" ", ""));
        }
        String journals = journals();
        String logs = logs();
        assertTrue(journals.contains("invoice.create"), "the scan read real journal rows");
        assertTrue(logs.contains("Payara Micro"), "the scan read real gateway logs");
        assertTrue(spans.contains("toolgate.lookup"), "the scan read real exported spans");
        String first = secrets.get(0);
        String last = secrets.get(secrets.size() - 1);
        assertEquals(Set.of(first, last), occurring(first + " between " + last, secrets), "the scan finds a secret at either end");

        Set<String> inJournals = occurring(journals, secrets);
        Set<String> inLogs = occurring(logs, secrets);
        Set<String> inSpans = occurring(spans, secrets);
        for (String secret : secrets) {
            assertFalse(inJournals.contains(secret), "a secret is in a journal: " + secret.substring(0, 4) + "…");
            assertFalse(inLogs.contains(secret), "a secret is in a log: " + secret.substring(0, 4) + "…");
            assertFalse(inSpans.contains(secret), "a secret is in an exported span: " + secret.substring(0, 4) + "…");
        }
    }

    /**
     * The secrets that occur in {@code text}, in one pass: a rolling hash of every window as long as the shortest secret,
     * looked up among the secrets' first as many characters, each hit then compared in full. A {@code contains} per
     * secret read the run's logs (tens of MB) once for every token the run issued (hundreds): 20 s, all of it at the end
     * of the run with every lane idle.
     */
    static Set<String> occurring(String text, List<String> secrets) {
        int width = secrets.stream().mapToInt(String::length).min().orElseThrow();
        if (width == 0) {
            throw new IllegalArgumentException("an empty secret occurs everywhere");
        }
        Map<Long, List<String>> byHead = new HashMap<>();
        boolean[] maybe = new boolean[1 << 20]; // a window whose low bits no secret's head has is passed over without a look-up
        for (String secret : secrets) {
            long head = hash(secret, 0, width);
            byHead.computeIfAbsent(head, h -> new ArrayList<>()).add(secret);
            maybe[(int) head & (maybe.length - 1)] = true;
        }
        Set<String> found = new HashSet<>();
        if (text.length() < width) {
            return found;
        }
        long leading = 1; // BASE^(width - 1): the weight of the character leaving the window
        for (int i = 1; i < width; i++) {
            leading *= BASE;
        }
        long window = hash(text, 0, width);
        for (int at = 0; ; at++) {
            List<String> candidates = maybe[(int) window & (maybe.length - 1)] ? byHead.get(window) : null;
            if (candidates != null) {
                for (String secret : candidates) {
                    if (text.startsWith(secret, at)) {
                        found.add(secret);
                    }
                }
            }
            if (at + width >= text.length()) {
                return found;
            }
            window = (window - text.charAt(at) * leading) * BASE + text.charAt(at + width);
        }
    }

    private static long hash(String s, int from, int width) {
        long h = 0;
        for (int i = from; i < from + width; i++) {
            h = h * BASE + s.charAt(i);
        }
        return h;
    }

    private static String journals() throws SQLException {
        StringBuilder dump = new StringBuilder();
        List<String> databases = new ArrayList<>();
        try (Connection c = TestStack.connect("postgres");
             ResultSet names = c.createStatement().executeQuery(
                     "SELECT datname FROM pg_database WHERE NOT datistemplate AND datname <> 'postgres'")) {
            while (names.next()) {
                databases.add(names.getString(1));
            }
        }
        for (String database : databases) {
            try (Connection c = TestStack.connect(database)) {
                if (!holdsAJournal(c)) {
                    continue; // created but not migrated yet: TestStack's, until a Micro suite deploys the WAR
                }
                for (String table : List.of("agent_operation_log", "operation_event", "principal")) {
                    try (ResultSet rows = c.createStatement().executeQuery("SELECT row_to_json(t)::text FROM " + table + " t")) {
                        while (rows.next()) {
                            dump.append(rows.getString(1)).append('\n');
                        }
                    }
                }
            }
        }
        return dump.toString();
    }

    private static boolean holdsAJournal(Connection c) throws SQLException {
        try (ResultSet table = c.createStatement().executeQuery("SELECT to_regclass('agent_operation_log') IS NOT NULL")) {
            return table.next() && table.getBoolean(1);
        }
    }

    /** The logs of the gateway processes and of the Payara Server domain. */
    private static String logs() throws IOException {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.walk(Path.of("target"))) {
            for (Path log : files.filter(f -> f.getFileName().toString().matches(".*gateway.*\\.log|server\\.log.*")).toList()) {
                all.append(Files.readString(log, StandardCharsets.ISO_8859_1));
            }
        }
        return all.toString();
    }
}

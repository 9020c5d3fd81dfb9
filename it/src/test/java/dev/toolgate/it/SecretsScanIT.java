package dev.toolgate.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.simulator.Simulators;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * After the whole suite: no token, admin secret, target credential or card number sent by any test
 * is in any journal (operations, events, principals) or in any log the gateways wrote.
 */
@Order(Integer.MAX_VALUE)
class SecretsScanIT {

    @Test
    void noSecretReachedTheJournalsOrTheLogs() throws Exception {
        List<String> secrets = new ArrayList<>(Credentials.ISSUED);
        secrets.add(TestStack.adminToken());
        secrets.add(Simulators.ONE_C_PASSWORD);
        secrets.add(Simulators.YOOKASSA_SECRET_KEY);
        secrets.add(Simulators.BITRIX24_SECRET);
        secrets.add(Agent.PERSON_INN); // personal data declared sensitive: never stored
        for (String card : AccessOnMicroIT.TEST_CARDS) {
            secrets.add(card);
            secrets.add(card.replace(" ", ""));
        }
        String journals = journals();
        String logs = logs();
        assertTrue(journals.contains("invoice.create"), "the scan read real journal rows");
        assertTrue(logs.contains("Payara Micro"), "the scan read real gateway logs");

        for (String secret : secrets) {
            assertFalse(journals.contains(secret), "a secret is in a journal: " + secret.substring(0, 4) + "…");
            assertFalse(logs.contains(secret), "a secret is in a log: " + secret.substring(0, 4) + "…");
        }
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

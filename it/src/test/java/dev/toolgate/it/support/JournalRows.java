package dev.toolgate.it.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** What a journal holds, read by SQL from outside the gateway: the suites' oracles read this, never the gateway's view. */
public final class JournalRows {

    private JournalRows() {
    }

    /** The status of each of {@code keys}' operations, read in one statement; a key the journal has no row for is absent. */
    public static java.util.Map<String, String> statuses(RunHistory.ConnectionSource journal, java.util.Collection<String> keys)
            throws SQLException {
        java.util.Map<String, String> statuses = new java.util.HashMap<>();
        try (Connection c = journal.open(); PreparedStatement rows = c.prepareStatement(
                "SELECT operation_key, status FROM agent_operation_log WHERE operation_key = ANY (?)")) {
            rows.setArray(1, c.createArrayOf("text", keys.toArray()));
            try (ResultSet result = rows.executeQuery()) {
                while (result.next()) {
                    statuses.put(result.getString(1), result.getString(2));
                }
            }
        }
        return statuses;
    }

    /** The status of {@code key}'s operation; null when the journal has no row for it. */
    public static String status(RunHistory.ConnectionSource journal, String key) throws SQLException {
        try (Connection c = journal.open();
             PreparedStatement row = c.prepareStatement("SELECT status FROM agent_operation_log WHERE operation_key = ?")) {
            row.setString(1, key);
            try (ResultSet result = row.executeQuery()) {
                return result.next() ? result.getString(1) : null;
            }
        }
    }
}

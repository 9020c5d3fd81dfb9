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

    /**
     * Writes a finished copy of {@code original}'s row under {@code key}, its fingerprint as {@code hashPrefix} + the
     * original's, straight into the journal: a row as another instance (or another release) left it, which the gateway
     * under test has never read and so holds nothing of.
     */
    public static void copyFinished(RunHistory.ConnectionSource journal, String original, String key, String hashPrefix)
            throws SQLException {
        try (Connection c = journal.open(); PreparedStatement copy = c.prepareStatement(
                "INSERT INTO agent_operation_log (tenant, operation_key, agent_id, operation_type, request_hash, payload, status,"
                        + " target_system, target_object_id, response_json, attempt_count, created_at, updated_at, completed_at)"
                        + " SELECT tenant, ?, agent_id, operation_type, ? || request_hash, payload, status, target_system,"
                        + " target_object_id, response_json, attempt_count, created_at, updated_at, completed_at"
                        + " FROM agent_operation_log WHERE operation_key = ? AND status IN ('succeeded', 'failed_final')")) {
            copy.setString(1, key);
            copy.setString(2, hashPrefix);
            copy.setString(3, original);
            if (copy.executeUpdate() != 1) {
                throw new IllegalStateException(original + " has no finished row to copy");
            }
        }
    }
}

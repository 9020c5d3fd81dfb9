package dev.toolgate.it.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** What a journal holds, read by SQL from outside the gateway: the suites' oracles read this, never the gateway's view. */
public final class JournalRows {

    private JournalRows() {
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

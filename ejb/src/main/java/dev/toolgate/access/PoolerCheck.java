package dev.toolgate.access;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;

/**
 * Whether a journal connection is a PostgreSQL session of its own, or goes through a pooler that hands server
 * connections round between transactions (PgBouncer's transaction mode), where a LISTEN is lost with its transaction.
 */
final class PoolerCheck {

    /** A custom setting only this check uses; {@code set_config(…, false)} makes it last as long as the session. */
    static final String MARKER = "toolgate.session_check";

    sealed interface Verdict permits Direct, Pooled, Unproven {
    }

    record Direct(int backendPid) implements Verdict {
    }

    record Pooled(String evidence) implements Verdict {
    }

    record Unproven(String why) implements Verdict {
    }

    /** Backends seen at start-up, in two consecutive transactions and in another connection's, and whether a session setting survived. */
    record Seen(int startupPid, int firstPid, int secondPid, boolean markerKept, int otherPid, boolean otherSawMarker) {
    }

    private PoolerCheck() {
    }

    /** {@code connection} in autocommit and held by the caller alone; {@code pool} gives the second connection. */
    static Verdict run(Connection connection, int startupPid, DataSource pool) throws SQLException {
        String marker = UUID.randomUUID().toString();
        int firstPid = backend(connection, "SELECT pg_backend_pid(), set_config('" + MARKER + "', ?, false) IS NOT NULL", marker).pid();
        try (Connection other = pool.getConnection()) {
            other.setAutoCommit(false); // holds its backend until the rollback, as no idle session is held by a pooler
            try {
                Backend seenByOther = backend(other, READ_BACK, marker);
                Backend second = backend(connection, READ_BACK, marker);
                return judge(new Seen(startupPid, firstPid, second.pid(), second.marked(), seenByOther.pid(), seenByOther.marked()));
            } finally {
                other.rollback();
                other.setAutoCommit(true);
            }
        }
    }

    /**
     * "Direct" needs every sign at once. Through a pooler the transaction signs may all hold by chance: they can give a
     * pooler away, never prove there is none. The start-up key can: a pooler names a (random) key of its own.
     */
    static Verdict judge(Seen seen) {
        if (seen.startupPid() == 0) {
            return new Unproven("no backend was named when the connection started");
        }
        if (seen.otherPid() == seen.firstPid()) {
            return new Pooled("another connection's transaction ran on backend " + seen.otherPid() + ", where this connection's had just run");
        }
        if (seen.otherSawMarker()) {
            return new Pooled("another connection's transaction saw a setting made in this connection's session");
        }
        if (seen.secondPid() != seen.firstPid()) {
            return new Pooled("one connection's consecutive transactions ran on backends " + seen.firstPid() + " and " + seen.secondPid());
        }
        if (!seen.markerKept()) {
            return new Pooled("a session setting made in one transaction was gone in the next");
        }
        if (seen.startupPid() != seen.firstPid()) {
            return new Pooled("the connection was named backend " + seen.startupPid() + " when it started, but runs on backend " + seen.firstPid());
        }
        return new Direct(seen.firstPid());
    }

    private record Backend(int pid, boolean marked) {
    }

    private static final String READ_BACK = "SELECT pg_backend_pid(), current_setting('" + MARKER + "', true) = ?";

    private static Backend backend(Connection connection, String sql, String marker) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, marker);
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                return new Backend(row.getInt(1), row.getBoolean(2));
            }
        }
    }
}

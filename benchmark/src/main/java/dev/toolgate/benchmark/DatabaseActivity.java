package dev.toolgate.benchmark;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What the journal's database has done so far, read over a connection to another database so the
 * reading is not counted: statements and explicit transactions from {@code pg_stat_statements} (shared
 * memory, exact at any moment), and commits from {@code pg_stat_database} and WAL flushes to disk from
 * {@code pg_stat_wal}. The latter two come through the statistics collector, which a PostgreSQL 14
 * backend feeds at most every 500 ms, so a cell's count there may be off by what was pending at its edges.
 */
final class DatabaseActivity implements AutoCloseable {

    /** Counters at one moment; subtract two to get what happened in between. */
    record Counters(long statements, long begins, long commits, long walSyncs) {
        Counters minus(Counters earlier) {
            return new Counters(statements - earlier.statements, begins - earlier.begins, commits - earlier.commits,
                    walSyncs - earlier.walSyncs);
        }
    }

    private final Connection connection;
    private final String database;

    DatabaseActivity(Connection toAnotherDatabase, String database) throws SQLException {
        this.connection = toAnotherDatabase;
        this.database = database;
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
        }
    }

    Counters now() {
        try (Statement s = connection.createStatement()) {
            s.execute("SELECT pg_stat_clear_snapshot()"); // else the collector's figures stay frozen for this session
            try (ResultSet r = s.executeQuery("SELECT"
                    + " (SELECT coalesce(sum(calls), 0) FROM pg_stat_statements p JOIN pg_database d ON d.oid = p.dbid"
                    + "   WHERE d.datname = '" + database + "' AND upper(trim(p.query)) NOT IN ('BEGIN', 'COMMIT', 'ROLLBACK')"
                    + "   AND p.query NOT ILIKE 'SET %' AND p.query NOT ILIKE 'SHOW %'),"
                    + " (SELECT coalesce(sum(calls), 0) FROM pg_stat_statements p JOIN pg_database d ON d.oid = p.dbid"
                    + "   WHERE d.datname = '" + database + "' AND upper(trim(p.query)) = 'BEGIN'),"
                    + " (SELECT xact_commit FROM pg_stat_database WHERE datname = '" + database + "'),"
                    + " (SELECT wal_sync FROM pg_stat_wal)")) {
                r.next();
                return new Counters(r.getLong(1), r.getLong(2), r.getLong(3), r.getLong(4));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}

package dev.toolgate.benchmark;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

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

        Counters plus(Counters more) {
            return new Counters(statements + more.statements, begins + more.begins, commits + more.commits, walSyncs + more.walSyncs);
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

    /** Each statement's calls, execution time (ms), planning time (ms) and rows so far, by its text; for {@link #top}. */
    Map<String, double[]> statements() {
        Map<String, double[]> all = new HashMap<>();
        try (Statement s = connection.createStatement(); ResultSet r = s.executeQuery("SELECT p.query, p.calls, p.total_exec_time,"
                + " p.total_plan_time, p.rows FROM pg_stat_statements p JOIN pg_database d ON d.oid = p.dbid WHERE d.datname = '"
                + database + "'")) {
            while (r.next()) {
                all.merge(r.getString(1), new double[] {r.getLong(2), r.getDouble(3), r.getDouble(4), r.getLong(5)},
                        (a, b) -> new double[] {a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]});
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return all;
    }

    /**
     * The {@code n} statements that took PostgreSQL the most execution time between two {@link #statements} readings,
     * per operation: where the server's CPU goes, statement by statement.
     */
    static String top(Map<String, double[]> before, Map<String, double[]> after, int n, long operations) {
        double ops = Math.max(1, operations);
        StringBuilder out = new StringBuilder(String.format("    %8s %9s %9s %8s  statement%n", "calls/op", "exec ms/op", "plan ms/op", "rows/call"));
        after.entrySet().stream()
                .map(e -> {
                    double[] was = before.getOrDefault(e.getKey(), new double[4]);
                    double[] d = new double[4];
                    for (int i = 0; i < 4; i++) {
                        d[i] = e.getValue()[i] - was[i];
                    }
                    return Map.entry(e.getKey(), d);
                })
                .filter(e -> e.getValue()[0] > 0)
                .sorted((a, b) -> Double.compare(b.getValue()[1] + b.getValue()[2], a.getValue()[1] + a.getValue()[2]))
                .limit(n)
                .forEach(e -> out.append(String.format("    %8.2f %9.3f %9.3f %8.1f  %s%n", e.getValue()[0] / ops, e.getValue()[1] / ops,
                        e.getValue()[2] / ops, e.getValue()[3] / e.getValue()[0],
                        e.getKey().replaceAll("\\s+", " ").substring(0, Math.min(150, e.getKey().replaceAll("\\s+", " ").length())))));
        return out.toString();
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}

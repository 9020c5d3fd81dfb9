package dev.toolgate.benchmark;

import dev.toolgate.journal.OperationRows;
import dev.toolgate.lifecycle.OperationWrites;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the gateway could reach on this database: the statements it issues for a new operation and for a replay, by
 * plain JDBC with no application server, in the gateway's transactions (StatementBudgetIT counts them). The token is
 * checked from the gateway's cache of callers, so neither reads the principal table. The connections are opened
 * before any call is timed, one per worker, as a pool would hold them.
 */
final class DatabaseLimit implements AutoCloseable {

    private static final Pattern NUMBERED = Pattern.compile("\\?(\\d+)");

    private final List<Connection> open = new ArrayList<>();
    private final BlockingQueue<Connection> idle = new LinkedBlockingQueue<>();
    private final ThreadLocal<Connection> connections = new ThreadLocal<>();

    DatabaseLimit(String jdbcUrl, int workers) throws SQLException {
        for (int i = 0; i < workers; i++) {
            Connection c = DriverManager.getConnection(jdbcUrl, "postgres", "postgres");
            open.add(c); // autocommit, as the gateway reads; the two writing transactions turn it off
        }
    }

    /** Each worker thread of the next run borrows one of the open connections; {@link #release} takes them back. */
    private Connection connection() {
        Connection c = connections.get();
        if (c == null) {
            c = idle.poll();
            if (c == null) {
                throw new IllegalStateException("more workers than connections opened");
            }
            connections.set(c);
        }
        return c;
    }

    /** Before each run: worker threads are new each run, so every connection is free again. */
    void release() {
        idle.clear();
        idle.addAll(open);
    }

    /**
     * A replay: the gateway's first statement for a key it knows has a row ({@code lifecycle.KnownKeys}) — the read by key
     * ({@code OperationRows.BY_KEY}), as for every key of the {@link ReplayPool}, each replayed once before a cell.
     */
    void replay(String tenant, String key) throws SQLException {
        try (PreparedStatement read = connection().prepareStatement(OperationRows.BY_KEY)) {
            read.setString(1, tenant);
            read.setString(2, key);
            drain(read);
        }
    }

    /** The first statement, capturing the key; then the outcome, returning its row: each autocommitted, as the gateway sends them. */
    void newOperation(String payloadJson) throws SQLException {
        Connection c = connection();
        String key = "bench:db:" + UUID.randomUUID() + ":v1";
        Timestamp now = Timestamp.from(Instant.now());
        firstLook(c, "bench", key, payloadJson);
        try (PreparedStatement settle = c.prepareStatement(jdbc(OperationWrites.SETTLE_ATTEMPT_LOGGED))) {
            Object[] values = {"succeeded", UUID.randomUUID().toString(), "{\"number\":\"0000-000001\"}", null, null, now, now,
                    null, "bench", key, 1, 1L, false, 201, null, 12, "bench-agent", "target object", "4bf92f3577b34da6a3ce929d0e0e4736"};
            bindByNumber(settle, OperationWrites.SETTLE_ATTEMPT_LOGGED, values); // the row, its event, the row returned
            drain(settle);
        }
    }

    /** The gateway's first statement for a key it does not know ({@code OperationWrites.READ_OR_CAPTURE}): its row, or the row and event captured. */
    private static void firstLook(Connection c, String tenant, String key, String payloadJson) throws SQLException {
        Timestamp now = Timestamp.from(Instant.now());
        try (PreparedStatement look = c.prepareStatement(jdbc(OperationWrites.READ_OR_CAPTURE))) {
            Object[] values = {tenant, key, "bench-agent", "invoice.create", "a".repeat(64), payloadJson, "started", "1c", 1,
                    Timestamp.from(Instant.now().plusSeconds(30)), now, now, "", false, "4bf92f3577b34da6a3ce929d0e0e4736",
                    "00f067aa0ba902b7", "bench", "attempt 1 leased"};
            bindByNumber(look, OperationWrites.READ_OR_CAPTURE, values);
            drain(look);
        }
    }

    /**
     * For a statement whose numbered parameters repeat: each occurrence bound to its number's value, as the gateway's
     * {@code NumberedSql} binds them. Written out here: the ejb module is only compiled against ({@code provided}),
     * so its string constants, which javac copies in, reach the benchmark, and its classes do not.
     */
    private static void bindByNumber(PreparedStatement statement, String jpaSql, Object[] values) throws SQLException {
        Matcher numbers = NUMBERED.matcher(jpaSql);
        for (int i = 1; numbers.find(); i++) {
            statement.setObject(i, values[Integer.parseInt(numbers.group(1)) - 1]);
        }
    }

    private static void drain(PreparedStatement query) throws SQLException {
        try (ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                rows.getString(1);
            }
        }
    }

    /** The JPA statements number their parameters (?1, ?2 …) in order; JDBC wants plain ?. */
    private static String jdbc(String jpaSql) {
        return jpaSql.replaceAll("\\?\\d+", "?");
    }

    @Override
    public void close() throws SQLException {
        for (Connection c : open) {
            c.close();
        }
    }
}

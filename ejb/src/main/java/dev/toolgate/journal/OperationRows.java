package dev.toolgate.journal;

import dev.toolgate.operation.OperationView;
import dev.toolgate.operation.OperationStatus;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.Optional;

/**
 * Operation rows over plain JDBC: the read by primary key every call with a key makes first, the same read under the
 * row lock, and the rows fenced writes return. Not through JPA: there the read costs more than the statement, on
 * every replay. Maps a row exactly as {@link Operation#view()} does, column for column.
 */
public final class OperationRows {

    public static final String COLUMNS = "tenant, operation_key, agent_id, operation_type, target_system, status, request_hash,"
            + " payload, withheld_fields, target_object_id, response_json, error_code, attempt_count, lease_until, lease_epoch,"
            + " next_check_at, reconcile_count, settle_after, escalated_at, created_at, updated_at, completed_at, trace_id,"
            + " span_id, approval_required, approval_id";

    /**
     * Columns by name, never {@code *}: an older release keeps statements prepared while a newer migration adds a column,
     * and PostgreSQL refuses a prepared statement whose result changed shape.
     */
    public static final String RETURNING = " RETURNING " + COLUMNS;

    /** Public constant expressions for the benchmark, whose JDBC floor runs the gateway's own statements. */
    public static final String BY_KEY = "SELECT " + COLUMNS + " FROM agent_operation_log WHERE tenant = ? AND operation_key = ?";

    static final String BY_KEY_LOCKED = BY_KEY + " FOR UPDATE";

    /** Many rows locked at once (?1, ?2: arrays of tenants and keys, side by side), in the order of their keys. */
    static final String BY_KEYS_LOCKED = "SELECT " + COLUMNS + " FROM agent_operation_log"
            + " WHERE (tenant, operation_key) IN (SELECT * FROM unnest(CAST(? AS text[]), CAST(? AS text[])))"
            + " ORDER BY tenant, operation_key FOR UPDATE";

    private OperationRows() {
    }

    /** {@link #RETURNING} for a write that names the table {@code alias} beside another that has some of its columns. */
    public static String returning(String alias) {
        return " RETURNING " + java.util.Arrays.stream(COLUMNS.split(",")).map(c -> alias + "." + c.strip())
                .collect(java.util.stream.Collectors.joining(", "));
    }

    public static Optional<OperationView> byKey(Connection connection, String tenant, String key) throws SQLException {
        return read(connection, BY_KEY, tenant, key);
    }

    public static Optional<OperationView> byKeyLocked(Connection connection, String tenant, String key) throws SQLException {
        return read(connection, BY_KEY_LOCKED, tenant, key);
    }

    public static OperationView current(Connection connection, OperationView operation) {
        return JournalConnections.run("the journal's read of an operation failed",
                () -> byKey(connection, operation.tenant(), operation.key()).orElseThrow());
    }

    public static OperationView locked(Connection connection, OperationView operation) {
        return JournalConnections.run("the journal's locked read of an operation failed",
                () -> byKeyLocked(connection, operation.tenant(), operation.key()).orElseThrow());
    }

    /** {@code operations}' rows as they are now, each locked, in one statement; by id, for the caller to pick. */
    public static Map<OperationId, OperationView> lockedAll(Connection connection, List<OperationView> operations) {
        return JournalConnections.run("the journal's locked read of operations failed", () -> {
            try (PreparedStatement read = connection.prepareStatement(BY_KEYS_LOCKED)) {
                read.setArray(1, connection.createArrayOf("text", operations.stream().map(OperationView::tenant).toArray()));
                read.setArray(2, connection.createArrayOf("text", operations.stream().map(OperationView::key).toArray()));
                Map<OperationId, OperationView> rows = new HashMap<>();
                for (OperationView row : all(read)) {
                    rows.put(new OperationId(row.tenant(), row.key()), row);
                }
                return rows;
            }
        });
    }

    private static Optional<OperationView> read(Connection connection, String sql, String tenant, String key) throws SQLException {
        try (PreparedStatement read = connection.prepareStatement(sql)) {
            read.setString(1, tenant);
            read.setString(2, key);
            return first(read);
        }
    }

    /** The first row {@code statement} returns (a fenced write returns its row, or none when the fence kept it out). */
    public static Optional<OperationView> first(PreparedStatement statement) throws SQLException {
        try (ResultSet row = statement.executeQuery()) {
            return row.next() ? Optional.of(view(row)) : Optional.empty();
        }
    }

    /** The operation the current row of {@code row} holds, or none when its columns are null (an outer join found nothing). */
    public static Optional<OperationView> present(ResultSet row) throws SQLException {
        return row.getString("operation_key") == null ? Optional.empty() : Optional.of(view(row));
    }

    public static List<OperationView> all(PreparedStatement statement) throws SQLException {
        List<OperationView> rows = new ArrayList<>();
        try (ResultSet row = statement.executeQuery()) {
            while (row.next()) {
                rows.add(view(row));
            }
        }
        return rows;
    }

    private static OperationView view(ResultSet row) throws SQLException {
        return new OperationView(row.getString("tenant"), row.getString("operation_key"), row.getString("agent_id"),
                row.getString("operation_type"), row.getString("target_system"), OperationStatus.fromDb(row.getString("status")),
                row.getString("request_hash"), Operation.json(row.getString("payload")),
                Operation.withheld(row.getString("withheld_fields")),
                row.getString("target_object_id"), Operation.json(row.getString("response_json")), row.getString("error_code"),
                row.getInt("attempt_count"), instant(row, "lease_until"), row.getLong("lease_epoch"), instant(row, "next_check_at"),
                row.getInt("reconcile_count"), instant(row, "settle_after"), instant(row, "escalated_at"),
                instant(row, "created_at"), instant(row, "updated_at"), instant(row, "completed_at"),
                row.getString("trace_id"), row.getString("span_id"), row.getBoolean("approval_required"), row.getString("approval_id"));
    }

    /**
     * A {@code timestamptz} as its instant, to the microsecond, whatever the JVM's zone. A Timestamp, not a typed
     * {@code getObject}: Payara's pooled result set looks the driver's method up reflectively on every such call.
     */
    public static Instant instant(ResultSet row, String column) throws SQLException {
        Timestamp at = row.getTimestamp(column);
        return at == null ? null : at.toInstant();
    }

    public static Instant instant(ResultSet row, int column) throws SQLException {
        Timestamp at = row.getTimestamp(column);
        return at == null ? null : at.toInstant();
    }
}

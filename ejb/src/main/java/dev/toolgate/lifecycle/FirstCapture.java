package dev.toolgate.lifecycle;

import static dev.toolgate.lifecycle.OperationWrites.READ_OR_CAPTURE;

import static dev.toolgate.operation.EventKind.CAPTURED;

import dev.toolgate.access.Caller;
import dev.toolgate.canonical.CanonicalRequest;
import dev.toolgate.journal.EventLog;
import dev.toolgate.journal.JournalConnections;
import dev.toolgate.journal.JournalSettings;
import dev.toolgate.journal.NumberedSql;
import dev.toolgate.journal.Operation;
import dev.toolgate.journal.OperationRows;
import dev.toolgate.journal.ThisRelease;
import dev.toolgate.lifecycle.decisions.CaptureDecision;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Trace;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The first statement of every call with a key, autocommitted outside any container transaction: the key's row and,
 * only when there is none, the new row with its {@code captured} event (a replay inserts nothing: no row, no event, no
 * WAL) — or, for a key {@link KnownKeys} remembers, a plain read by key.
 *
 * <p>It is the one statement that writes a capture, {@code ON CONFLICT DO NOTHING} included: of two callers racing
 * with a new key, the loser inserts nothing and sees no row ({@link KeyLook.Raced}), and is decided under the row's
 * lock; {@link KeyCapture} runs it again ({@link #captured}) when a purge took the row meanwhile.
 *
 * <p>A plain bean, not an EJB with {@code NOT_SUPPORTED}, for the reason {@link OperationLoop} gives: {@link #look}
 * checks that no transaction is open.
 */
@ApplicationScoped
public class FirstCapture {

    private static final NumberedSql READ_OR_CAPTURE_RUN = NumberedSql.of(READ_OR_CAPTURE);
    private static final String AWAITING_APPROVAL = "awaiting approval; nothing sent";
    private static final String ATTEMPT_1_LEASED = "attempt 1 leased";

    /**
     * What the first look at a key found: a new key captured, the row as it stood, or a race (another caller's insert
     * committed after the capture's statement began, so it saw no row and could insert none).
     */
    public sealed interface KeyLook {

        record Captured(Phase phase) implements KeyLook {
        }

        /** The row as it stood, read with no lock: a finished one answers a replay; any other is decided again under its lock. */
        record Found(OperationView row) implements KeyLook {
        }

        record Raced() implements KeyLook {
        }
    }

    @Inject
    JournalSettings settings;
    @Inject
    KnownKeys keys;
    @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
    TransactionSynchronizationRegistry transactions;
    @Inject
    JournalConnections journal;

    /** The key's row, or this call's capture of it, by one statement committed before it returns. */
    public KeyLook look(Caller caller, String key, CanonicalRequest request) {
        if (transactions.getTransactionStatus() != Status.STATUS_NO_TRANSACTION) { // its commit must be its own, before any target is called
            throw new IllegalStateException("the capture of " + key + " was called inside a transaction");
        }
        Instant now = Instant.now();
        Trace.operation(key);
        boolean approval = settings.approvalRequired(request.operation());
        boolean known = keys.known(caller.tenant(), key);
        First first = journal.autocommitted("the journal's capture of an operation failed",
                connection -> first(connection, known, caller.tenant(), key,
                        () -> insertValues(caller, key, request, now, approval, settings.lease())));
        if (first.captured()) {
            keys.add(caller.tenant(), key);
            Phase captured = newRow(caller, key, request, now, approval, settings.lease());
            OperationView operation = captured.operation();
            EventLog.logCommitted(operation, caller.principalId(), CAPTURED, operation.attemptCount(), operation.status(),
                    detail(approval));
            return new KeyLook.Captured(captured);
        }
        if (first.row() == null) {
            return new KeyLook.Raced();
        }
        keys.add(caller.tenant(), key); // again if known: kept among the newest, as a key still replayed should be
        return new KeyLook.Found(first.row());
    }

    /** On {@code connection}, in its transaction: whether the capture's statement captured the key (false: a row was there). */
    static boolean captured(Connection connection, Object[] values) throws java.sql.SQLException {
        return readOrCapture(connection, values).captured();
    }

    /** What the first look did: captured the key, or read its row (null: none, and none captured: a race). */
    record First(boolean captured, OperationView row) {
    }

    /** A {@code known} key's row by key alone; any other, or one purged since, by {@link OperationWrites#READ_OR_CAPTURE}. */
    static First first(Connection connection, boolean known, String tenant, String key, Supplier<Object[]> capture)
            throws java.sql.SQLException {
        if (known) {
            Optional<OperationView> row = OperationRows.byKey(connection, tenant, key);
            if (row.isPresent()) {
                return new First(false, row.get());
            }
        }
        return readOrCapture(connection, capture.get());
    }

    private static First readOrCapture(Connection connection, Object[] values) throws java.sql.SQLException {
        try (PreparedStatement statement = READ_OR_CAPTURE_RUN.prepare(connection, values); ResultSet row = statement.executeQuery()) {
            row.next(); // always one row: the outer join's
            return row.getLong("captured_rows") == 1 ? new First(true, null) : new First(false, OperationRows.present(row).orElse(null));
        }
    }

    /** {@link OperationWrites#READ_OR_CAPTURE}'s ?1 to ?18: the new row, the release capturing it, its event's detail. */
    static Object[] insertValues(Caller caller, String key, CanonicalRequest request, Instant now, boolean approval, Duration lease) {
        return new Object[] {caller.tenant(), key, caller.principalId(), request.operation(), request.fingerprint(),
                request.storedPayloadJson(), (approval ? OperationStatus.PENDING_APPROVAL : OperationStatus.STARTED).dbName(),
                request.target(), approval ? 0 : 1, approval ? null : Operation.at(now.plus(lease)), Operation.at(now),
                Operation.at(now), String.join(",", request.withheldFields()), approval, Trace.traceId(), Spans.currentSpanId(),
                ThisRelease.name(), detail(approval)};
    }

    /** The decision for a row just inserted: attempt 1 leased, or nothing sent until a person approves exactly this intent. */
    static Phase newRow(Caller caller, String key, CanonicalRequest request, Instant now, boolean approval, Duration lease) {
        OperationView row = new OperationView(caller.tenant(), key, caller.principalId(), request.operation(), request.target(),
                approval ? OperationStatus.PENDING_APPROVAL : OperationStatus.STARTED, request.fingerprint(), request.storedPayload(),
                request.withheldFields(), null, null, null, approval ? 0 : 1, approval ? null : now.plus(lease), 1, null, 0, null, null,
                now, now, null, Trace.traceId(), Spans.currentSpanId(), approval, null);
        return Phase.captured(approval ? new CaptureDecision.AwaitingApproval() : new CaptureDecision.Execute(), null, row);
    }

    static String detail(boolean approval) {
        return approval ? AWAITING_APPROVAL : ATTEMPT_1_LEASED;
    }
}

package dev.toolgate.approval;

import dev.toolgate.operation.EventKind;
import dev.toolgate.operation.OperationView;

import java.sql.Connection;
import java.time.Instant;

/**
 * What a person's approval decision writes to the operation's row, each one statement with its event. The
 * statements are the lifecycle's, with every other transition of the row ({@code lifecycle.ApprovalWrites});
 * they reach {@link Approvals} injected, so that this package, whose standing the lifecycle reads, never
 * imports the lifecycle back. Both run under the row lock {@link Approvals} took, fenced by the row as it read
 * it there, on {@code c}, the connection of its transaction.
 */
public interface ApprovalTransitions {

    /** Names {@code approvalId} on the row {@code before} (awaiting approval), with the {@code approved} event; the row now. */
    OperationView approved(Connection c, OperationView before, String approvalId, String actor, Instant now, String detail);

    /**
     * {@code before} → failed_final with {@code code}: its approval lapsed or a person declined it before anything was
     * sent, journaled as {@code kind}; the row now.
     */
    OperationView lapsed(Connection c, OperationView before, String code, EventKind kind, String actor, Instant now, String detail);
}

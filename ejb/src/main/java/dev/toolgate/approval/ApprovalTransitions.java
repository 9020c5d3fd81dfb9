package dev.toolgate.approval;

import dev.toolgate.operation.EventKind;
import dev.toolgate.operation.OperationView;

import java.sql.Connection;
import java.time.Instant;

/**
 * What an approval decision writes to the operation's row: the lifecycle's statements, injected so this package never
 * imports the lifecycle back ({@link dev.toolgate.approval}). Run on {@code c} under the row lock {@link Approvals} took.
 */
public interface ApprovalTransitions {

    OperationView approved(Connection c, OperationView before, String approvalId, String actor, Instant now, String detail);

    /** {@code before} → failed_final with {@code code}: its approval lapsed or was declined before anything was sent. */
    OperationView lapsed(Connection c, OperationView before, String code, EventKind kind, String actor, Instant now, String detail);
}

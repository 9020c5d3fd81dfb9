package dev.toolgate.operation;

import java.util.Locale;

/** What an {@code operation_event} row records. */
public enum EventKind {
    /** A new key: the row was inserted, attempt 1 leased or awaiting approval. */
    CAPTURED,
    /** A later attempt was leased (after failed_retryable, or after reconciliation found nothing). */
    ATTEMPT_STARTED,
    OUTCOME,
    /** An outcome arrived from an attempt that no longer owns the row; it was not written. */
    OUTCOME_REFUSED,
    /** A started row's lease had expired: its outcome is unknown until looked up. */
    LEASE_EXPIRED,
    /** A target announced a change to the operation's object: a look-up by key follows, never a settlement on its word. */
    NOTIFIED,
    RECONCILE_STARTED,
    RECONCILED,
    /** Reconciliation gave up or found a duplicate: a person must decide. */
    ESCALATED,
    REPLAYED,
    /** The key arrived with a different payload: refused, nothing executed. */
    KEY_REUSED,
    /** Another caller held the lease: refused. */
    IN_PROGRESS,
    /** The outcome is still unknown and no look-up was due: answered 202. */
    UNSETTLED,
    APPROVED,
    APPROVAL_REVOKED,
    /** A person declined the operation before any approval was used: failed for good, nothing sent. */
    DECLINED,
    /** The approval was revoked or expired when a new attempt was due: failed for good, nothing sent. */
    APPROVAL_LAPSED,
    RESUMED,
    RESOLVED;

    /** Every event's row and log line names its kind: spelled once, not lower-cased each time. */
    private final String dbName = name().toLowerCase(Locale.ROOT);

    public String dbName() {
        return dbName;
    }
}

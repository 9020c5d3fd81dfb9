package dev.toolgate.dispatch;

import dev.toolgate.journal.OperationView;
import dev.toolgate.targets.Dispatch;
import jakarta.json.JsonObject;

/** What a target sees of an operation (kept out of the dispatcher bean: an EJB should have no static methods). */
public final class Dispatches {

    private Dispatches() {
    }

    /**
     * {@code payload} is never the caller's latest words: it is the journal's, or the caller's own request
     * whose fingerprint capture matched against the journal's.
     */
    public static Dispatch of(OperationView operation, JsonObject payload) {
        return new Dispatch(Dispatch.downstreamKey(operation.tenant(), operation.key()), operation.operation(),
                operation.attemptCount(), payload, operation.createdAt(), operation.targetObjectId(), operation.traceId());
    }
}

package dev.toolgate.lifecycle;

import dev.toolgate.operation.OperationView;
import dev.toolgate.targets.Attempt;
import dev.toolgate.targets.EffectGate;
import jakarta.json.JsonObject;

/** What a target sees of an operation (kept out of the dispatcher bean: an EJB should have no static methods). */
public final class Attempts {

    private Attempts() {
    }

    /** {@code payload}: the journal's, or the caller's request whose fingerprint matched the journal's at capture. */
    public static Attempt of(OperationView operation, JsonObject payload, EffectGate gate) {
        return new Attempt(Attempt.downstreamKey(operation.tenant(), operation.key()), operation.operation(),
                operation.attemptCount(), payload, operation.createdAt(), operation.targetObjectId(), operation.traceId(), gate);
    }

    /** What a look-up sees: it sends nothing that can create an effect, so nothing gates it. */
    public static Attempt forLookup(OperationView operation) {
        return of(operation, operation.payload(), LOOKUP);
    }

    private static final EffectGate LOOKUP = new EffectGate() {
        @Override
        public Passage beforeEffect() {
            throw new IllegalStateException("a look-up must not send a request that can create the effect");
        }

        @Override
        public boolean effectMayHaveLeft() {
            return false;
        }
    };
}

package dev.toolgate.lifecycle.decisions;

import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.RetryPolicy;
import jakarta.json.JsonObject;

import java.time.Duration;
import java.time.Instant;
import java.util.function.DoubleSupplier;

/**
 * What an attempt's outcome does to its row, as a pure function: the second of the three lifecycle
 * tables (after {@link CapturePolicy}, before {@link LookupDecisions}). {@code lifecycle.OutcomeRecorder} applies it.
 *
 * <pre>
 * outcome     budget left   →  status            error_code / next check
 * Succeeded   any           →  succeeded         — (object id, result kept for replay)
 * Rejected    any           →  failed_final      the target's code
 * Transient   yes           →  failed_retryable  its code, after the back-off (or Retry-After)
 * Transient   no            →  failed_final      retries_exhausted: every attempt provably not executed
 * Pending     any           →  unknown           target_pending, looked at again after its hint; never resent
 * Unknown     any           →  unknown           its code, looked up by key now
 * </pre>
 */
public final class AttemptOutcomes {

    private AttemptOutcomes() {
    }

    public static Transition transition(Outcome outcome, int attempt, RetryPolicy policy, Instant now, DoubleSupplier random) {
        if (outcome instanceof Outcome.Succeeded s) {
            return new Transition(OperationStatus.SUCCEEDED, s.objectId(), s.result(), null, null);
        }
        if (outcome instanceof Outcome.Rejected r) {
            return new Transition(OperationStatus.FAILED_FINAL, null, detail(r.detail()), r.errorCode(), null);
        }
        if (outcome instanceof Outcome.Transient t) {
            if (policy.exhausted(attempt)) {
                return exhausted(attempt, "the last: " + t.errorCode());
            }
            Duration wait = policy.delayBefore(attempt + 1, t.retryAfter(), random);
            return new Transition(OperationStatus.FAILED_RETRYABLE, null, null, t.errorCode(), now.plus(wait));
        }
        if (outcome instanceof Outcome.Pending p) {
            Duration wait = p.retryAfter() != null ? p.retryAfter() : policy.initialDelay();
            return new Transition(OperationStatus.UNKNOWN, p.objectId(), null, "target_pending", now.plus(wait));
        }
        if (outcome instanceof Outcome.Unknown u) {
            return new Transition(OperationStatus.UNKNOWN, null, null, u.errorCode(), now);
        }
        throw new IllegalArgumentException("an outcome this table does not know: " + outcome);
    }

    /**
     * After the lease lapsed and a look-up took the row over, only a success still settles it: it names the object,
     * the best evidence there is. Any other late outcome proves nothing the look-up will not find out better.
     */
    public static boolean settlesAfterLeaseLapsed(Transition to) {
        return to.status() == OperationStatus.SUCCEEDED;
    }

    /** A refused success naming an object the row does not hold: the effect exists whatever the row says, so a person must know. */
    public static boolean contradicts(Transition refused, OperationView now) {
        return refused.status() == OperationStatus.SUCCEEDED
                && !(now.status() == OperationStatus.SUCCEEDED && refused.objectId().equals(now.targetObjectId()));
    }

    /** A late unknown: the target may still execute the request, so a look-up's "absent" proves nothing for a while yet. */
    public static boolean extendsSettleWindow(Outcome outcome) {
        return outcome instanceof Outcome.Unknown;
    }

    /** Budget spent. "None executed" holds: a Transient outcome proves no execution, and a retry after unknown needs a look-up. */
    static Transition exhausted(int attempts, String why) {
        return new Transition(OperationStatus.FAILED_FINAL, null, detail(attempts + " attempts, none executed; " + why),
                "retries_exhausted", null);
    }

    static JsonObject detail(String text) {
        return JSON.createObjectBuilder().add("detail", text).build();
    }
}

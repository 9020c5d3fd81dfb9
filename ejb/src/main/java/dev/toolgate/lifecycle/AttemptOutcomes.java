package dev.toolgate.lifecycle;

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
 * tables (after {@link CapturePolicy}, before {@link LookupDecisions}). {@link OutcomeRecorder} applies it.
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
     * Whether the attempt's own outcome may still settle its row after the lease lapsed and a look-up
     * took the row over (still unknown, for this very attempt, not escalated): only a success may,
     * because it names the object — the best evidence there is. A failure or another unknown from an
     * attempt that no longer holds the row proves nothing the look-up will not find out better.
     */
    public static boolean settlesAfterLeaseLapsed(Transition to) {
        return to.status() == OperationStatus.SUCCEEDED;
    }

    /**
     * Whether an outcome the fence refused contradicts the row: a success naming an object the row does
     * not hold. The effect exists whatever the row says, so a person must know.
     */
    public static boolean contradicts(Transition refused, OperationView now) {
        return refused.status() == OperationStatus.SUCCEEDED
                && !(now.status() == OperationStatus.SUCCEEDED && refused.objectId().equals(now.targetObjectId()));
    }

    /**
     * Whether an attempt's outcome that came too late to settle its row still moves the row's settle
     * window: an unknown says the attempt just gave up on a request the target may still execute, so
     * a look-up's "absent" proves nothing for a while yet.
     */
    public static boolean extendsSettleWindow(Outcome outcome) {
        return outcome instanceof Outcome.Unknown;
    }

    /**
     * The budget is spent. "None executed" holds: a Transient outcome means the attempt provably did not
     * execute, and an attempt after an unknown is only ever sent once a look-up found no effect.
     */
    static Transition exhausted(int attempts, String why) {
        return new Transition(OperationStatus.FAILED_FINAL, null, detail(attempts + " attempts, none executed; " + why),
                "retries_exhausted", null);
    }

    static JsonObject detail(String text) {
        return JSON.createObjectBuilder().add("detail", text).build();
    }
}

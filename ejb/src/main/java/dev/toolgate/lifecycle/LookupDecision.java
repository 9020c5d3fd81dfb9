package dev.toolgate.lifecycle;


/** What a look-up's result does to an unknown operation; decided by {@link LookupDecisions}. */
public sealed interface LookupDecision {

    /** The row is no longer what the look-up was leased for: write nothing, record the refusal. */
    record Refused(String why) implements LookupDecision {
    }

    /** The outcome is settled (found, failed at the target, budget spent, approval lapsed, awaiting the caller). */
    record Settle(Transition to, String detail) implements LookupDecision {
    }

    /** Nothing found, but the lost request may still be executing: look again when the settle window ends. */
    record AwaitSettle() implements LookupDecision {
    }

    /** Nothing found after the settle window, the budget and the approval allow it: send the next attempt now. */
    record Retry() implements LookupDecision {
    }

    /**
     * A look-up made before the row was due (a target's notification started it) learned nothing new: the lease is
     * released and the schedule, the look-up count and the back-off stay as they were.
     */
    record Release(String errorCode) implements LookupDecision {
    }

    /** The target could not settle it (pending, unavailable, or a duplicate): back off, or hand it to a person. */
    record Postpone(String errorCode, boolean escalateNow) implements LookupDecision {
    }
}

package dev.toolgate.lifecycle.decisions;


public sealed interface LookupDecision {

    /** The row is no longer what the look-up was leased for: write nothing, record the refusal. */
    record Refused(String why) implements LookupDecision {
    }

    record Settle(Transition to, String detail) implements LookupDecision {
    }

    /** Nothing found, but the lost request may still be executing: look again when the settle window ends. */
    record AwaitSettle() implements LookupDecision {
    }

    record Retry() implements LookupDecision {
    }

    /** Before the row was due (a notification started it) and nothing learned: lease released, schedule and count unchanged. */
    record Release(String errorCode) implements LookupDecision {
    }

    /** The target could not settle it (pending, unavailable, or a duplicate): back off, or hand it to a person. */
    record Postpone(String errorCode, boolean escalateNow) implements LookupDecision {
    }
}

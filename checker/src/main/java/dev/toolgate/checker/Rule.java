package dev.toolgate.checker;

/** The rules a fault run is judged by. */
public enum Rule {
    /**
     * No agent is told 5xx, but 503 with {@code Retry-After} while the journal is away ({@code journal-unavailable}) or
     * a gateway stops ({@code gateway-stopping}); no call goes unanswered, nor is answered by the server without the
     * application (a 404, 500 or 503 with no problem document), but while a gateway starts or stops.
     */
    NO_SERVER_ERROR,
    /** An operation an agent was told succeeded is succeeded in the journal with that one object, made exactly once at its target. */
    ACKNOWLEDGED_EXACTLY_ONCE,
    /** Every answer for one key that names its object names the same one: one stored result. */
    ONE_STORED_RESULT,
    /** An operation never acknowledged is settled in the journal (or never journaled and never sent) and made at most once. */
    UNACKNOWLEDGED_SETTLED_AT_MOST_ONCE,
    /** A refusal for good (a 4xx that is not "wait") stands on a failed_final row with nothing at the target. */
    REFUSAL_MATCHES_JOURNAL,
    /** No create reached a target's work twice with one key, even where the target deduplicated the second. */
    ONE_CREATE_SENT,
    /** An operation is escalated only where its fault plan can cause that. */
    ESCALATION_WITHIN_PLAN,
    /** Every armed fault fired as often as it was armed: a fault that never fired tested nothing. */
    ARMED_FAULT_FIRED
}

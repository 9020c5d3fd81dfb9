package dev.toolgate.simulator;

/**
 * One armed fault: applies to the next {@code times} requests to {@code system} whose method,
 * path, query or body contains {@code match}.
 */
record Fault(String system, String match, String method, Kind kind, int status, long delayMs, int times) {

    enum Kind {
        /** Do the work and commit, then drop the connection: the caller cannot know it happened. */
        DROP_RESPONSE_AFTER_COMMIT,
        /**
         * Do the work and commit, then answer {@code status} (500 by default) with the system's error body: a
         * server error that follows a write (1C's own 500 may follow a written document).
         */
        STATUS_AFTER_COMMIT,
        /** Drop the connection before doing anything. */
        RESET_BEFORE_COMMIT,
        /** Answer {@code status} with the system's error body, doing nothing. */
        STATUS,
        /** Wait {@code delayMs}, then do the work and answer (a caller with a shorter timeout gives up first). */
        DELAY,
        /** Do the work twice: two objects carry the same key, as a racing duplicate would leave them. */
        DUPLICATE,
        /** Accept the work as pending; it succeeds later (payment providers). */
        PENDING_THEN_SUCCEEDED,
        /**
         * Answer 200, doing nothing, with valid JSON of the wrong shape (ids and lists as numbers), as a
         * misconfigured proxy or a broken extension might: what a client must survive without crashing.
         */
        WRONG_SHAPE
    }
}

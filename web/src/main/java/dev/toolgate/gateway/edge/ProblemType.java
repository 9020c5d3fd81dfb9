package dev.toolgate.gateway.edge;

import java.util.Locale;

/** Every problem a door answers with. The {@code type} URI is stable: agents branch on it, not on the title or detail. */
public enum ProblemType {
    UNAUTHENTICATED(401, "Authentication required"),
    FORBIDDEN(403, "Not allowed for this principal's roles"),
    RATE_LIMITED(429, "Too many requests from this principal"),
    PAYLOAD_TOO_LARGE(413, "Request body too large"),
    CARD_NUMBER_REJECTED(422, "The request carries a payment card number"),
    PRINCIPAL_EXISTS(409, "A principal with this id exists"),
    PRINCIPAL_NOT_FOUND(404, "No live principal with this id"),
    IDEMPOTENCY_KEY_MISSING(400, "Idempotency-Key header is missing"),
    IDEMPOTENCY_KEY_INVALID(400, "Idempotency-Key header is invalid"),
    MALFORMED_JSON(400, "Request body is not valid JSON"),
    /** Not UTF-8, a duplicate member name, a lone surrogate, a number beyond a double: RFC 7493. */
    NOT_I_JSON(400, "Request body is JSON but not I-JSON (RFC 7493)"),
    INVALID_REQUEST(400, "Request body does not have the documented shape"),
    UNKNOWN_OPERATION(400, "Unknown operation"),
    UNKNOWN_PROCESS(400, "Unknown process type"),
    UNKNOWN_TARGET(400, "Unknown or unconfigured target"),
    INVALID_PAYLOAD(400, "Payload is invalid for this operation"),
    IDEMPOTENCY_KEY_REUSED(422, "Idempotency-Key was already used with a different payload"),
    OPERATION_IN_PROGRESS(409, "Another request with this key is in progress"),
    OUTCOME_UNKNOWN(202, "Outcome unknown: it is being clarified with the target; retry with the same key"),
    APPROVAL_REQUIRED(202, "The operation awaits approval"),
    TARGET_REJECTED(422, "The target system rejected the operation"),
    TARGET_UNAVAILABLE(503, "The target system is unavailable; the operation was not executed"),
    RETRIES_EXHAUSTED(502, "The target could not take the operation within its retry budget; nothing was executed"),
    APPROVAL_LAPSED(409, "The operation's approval was revoked or had expired before an attempt; nothing was sent"),
    APPROVAL_NOT_FOUND(404, "No approval with this id"),
    APPROVAL_NOT_REQUIRED(409, "This operation needs no approval"),
    NOT_AWAITING_APPROVAL(409, "The operation is not awaiting approval"),
    FINGERPRINT_MISMATCH(409, "The operation's fingerprint is not the one given"),
    OWN_OPERATION(403, "A principal cannot approve its own operation"),
    NOT_ESCALATED(409, "The operation is not escalated"),
    RESUME_NEEDS_CALLER(409, "Resuming needs fields the journal never kept: send the original request with the same key"),
    RESUME_TAKES_NO_PARAMETERS(400, "Resume continues the recorded operation and takes no parameters"),
    RECONCILIATION_NOT_FOUND(404, "No reconcile run with this id on this instance"),
    OPERATION_NOT_FOUND(404, "No operation with this key"),
    PROCESS_NOT_FOUND(404, "No process with this key"),
    PROCESS_NOT_NEEDING_ATTENTION(409, "The process does not wait for a person to settle it"),
    PROCESS_IN_PROGRESS(409, "Another advancer is moving the process now; retry shortly"),
    NOT_FOUND(404, "No such resource"),
    METHOD_NOT_ALLOWED(405, "Method not allowed"),
    NOT_ACCEPTABLE(406, "Not acceptable"),
    UNSUPPORTED_MEDIA_TYPE(415, "Unsupported media type: send application/json"),
    JOURNAL_UNAVAILABLE(503, "The gateway's journal database is unavailable; retry with the same key after Retry-After"),
    FINGERPRINT_SCHEME_UNKNOWN(503, "This key's fingerprint was made by a newer release; nothing was done: retry with the same key after Retry-After"),
    GATEWAY_STOPPING(503, "This gateway instance is stopping; nothing was done: retry with the same key after Retry-After"),
    NOTIFICATION_SOURCE_REFUSED(403, "The notification did not come from the target's configured source or token; nothing was done"),
    NOTIFICATIONS_NOT_TAKEN(404, "This gateway takes no notifications from this target"),
    NOTIFICATIONS_BUSY(503, "Too many notifications wait for their look-up on this instance; deliver it again after Retry-After"),
    INTERNAL_ERROR(500, "Internal error");

    public static final String BASE = "https://toolgate.dev/problems/";

    private final int status;
    private final String title;

    ProblemType(int status, String title) {
        this.status = status;
        this.title = title;
    }

    public int status() {
        return status;
    }

    public String title() {
        return title;
    }

    /** The registered reason phrase of its status, which every status line carries ({@link StatusLines}). */
    public String reason() {
        return ReasonPhrases.of(status).orElseThrow();
    }

    public String uri() {
        return BASE + name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static ProblemType forStatus(int status) {
        return switch (status) {
            case 404 -> NOT_FOUND;
            case 405 -> METHOD_NOT_ALLOWED;
            case 406 -> NOT_ACCEPTABLE;
            case 413 -> PAYLOAD_TOO_LARGE;
            case 415 -> UNSUPPORTED_MEDIA_TYPE;
            default -> status >= 500 ? INTERNAL_ERROR : INVALID_REQUEST;
        };
    }
}

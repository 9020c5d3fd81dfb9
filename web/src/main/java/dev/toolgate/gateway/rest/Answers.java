package dev.toolgate.gateway.rest;

import dev.toolgate.gateway.GatewayAnswer;
import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.journal.Journal;
import dev.toolgate.journal.OperationStatus;
import dev.toolgate.journal.OperationView;
import jakarta.json.JsonArrayBuilder;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriBuilder;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/** The one place where the gateway's answers become HTTP: status, headers and body (docs/http-api.md). */
final class Answers {

    static final String REPLAYED = "Idempotent-Replayed";

    private final UriBuilder base;
    private final Duration retention;

    /**
     * @param base      the application's base URI ({@code …/api}), from the request
     * @param retention how long finished operations are kept, published as their {@code expires_at}
     */
    Answers(UriBuilder base, Duration retention) {
        this.base = base;
        this.retention = retention;
    }

    Response toResponse(GatewayAnswer answer) {
        if (answer instanceof GatewayAnswer.Done done) {
            return done(done.operation(), done.replayed());
        }
        if (answer instanceof GatewayAnswer.OutcomeUnknown unknown) {
            return problem(ProblemType.OUTCOME_UNKNOWN, unknown.operation(), unknown.operation().escalatedAt() != null
                    ? "escalated: reconciliation could not settle it, a person will; never use a new key for it"
                    : "the target may have executed it; the gateway looks it up by this key before anything is sent again")
                    .header("Retry-After", seconds(unknown.retryAfter()))
                    .location(self(unknown.operation())).build();
        }
        if (answer instanceof GatewayAnswer.InProgress busy) {
            return problem(ProblemType.OPERATION_IN_PROGRESS, busy.operation(), "retry with the same key after Retry-After")
                    .header("Retry-After", seconds(busy.retryAfter())).build();
        }
        if (answer instanceof GatewayAnswer.TryLater later) {
            return problem(ProblemType.TARGET_UNAVAILABLE, later.operation(),
                    "nothing was executed; retry with the same key after Retry-After")
                    .header("Retry-After", seconds(later.retryAfter())).build();
        }
        if (answer instanceof GatewayAnswer.KeyReused reused) {
            return Problem.of(ProblemType.IDEMPOTENCY_KEY_REUSED,
                            "this key names another request; nothing was executed. A new intent needs a new key")
                    .with("operation_key", reused.operation().key())
                    .response().build();
        }
        GatewayAnswer.AwaitingApproval waiting = (GatewayAnswer.AwaitingApproval) answer;
        return problem(ProblemType.APPROVAL_REQUIRED, waiting.operation(), null).location(self(waiting.operation())).build();
    }

    Response record(Journal.OperationRecord record) {
        OperationView op = record.operation();
        return Response.ok(OperationJson.withHistory(op, record.events(), record.approval(), selfPath(op), retention).toString(),
                MediaType.APPLICATION_JSON).build();
    }

    /** A list of operations (escalations, approvals awaited), each as in every other answer. */
    Response list(String name, List<OperationView> operations) {
        JsonArrayBuilder items = JSON.createArrayBuilder();
        operations.forEach(op -> items.add(OperationJson.of(op, selfPath(op), retention)));
        return Response.ok(JSON.createObjectBuilder().add(name, items).build().toString(), MediaType.APPLICATION_JSON).build();
    }

    private Response done(OperationView op, boolean replayed) {
        Response.ResponseBuilder response;
        if (op.status() == OperationStatus.SUCCEEDED) {
            response = Response.status(replayed ? 200 : 201).type(MediaType.APPLICATION_JSON)
                    .entity(OperationJson.of(op, selfPath(op), retention).toString());
            if (!replayed) {
                response.location(self(op));
            }
        } else if (op.errorCode() != null && op.errorCode().startsWith("approval_")) {
            response = problem(ProblemType.APPROVAL_LAPSED, op, "the approval was " + op.errorCode().substring(9)
                    + " before an attempt could be sent; a new attempt at the intent needs a new key and a new approval");
        } else if ("retries_exhausted".equals(op.errorCode())) {
            response = problem(ProblemType.RETRIES_EXHAUSTED, op, "final for this key; a new attempt at the intent needs a new key");
        } else { // failed_final: the stored error, replayed as first answered
            response = problem(ProblemType.TARGET_REJECTED, op, "the target refused; sending it again would not help");
        }
        return replayed ? response.header(REPLAYED, "true").build() : response.build();
    }

    private Response.ResponseBuilder problem(ProblemType type, OperationView op, String detail) {
        return Problem.of(type, detail)
                .with("operation_key", op.key())
                .with("operation", OperationJson.of(op, selfPath(op), retention))
                .response();
    }

    URI self(OperationView op) {
        return base.clone().path("v1/operations/{key}").build(op.key());
    }

    private String selfPath(OperationView op) {
        return self(op).getRawPath();
    }

    private static String seconds(Duration duration) {
        long s = (duration.toMillis() + 999) / 1000; // round up: never invite a retry before the moment
        return Long.toString(Math.max(1, s));
    }
}

package dev.toolgate.gateway.rest;

import dev.toolgate.gateway.edge.ProblemType;
import dev.toolgate.gateway.records.OperationJson;
import dev.toolgate.search.OperationRecords;
import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.gateway.GatewayAnswer;
import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.operation.OperationView;
import jakarta.json.JsonArrayBuilder;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The one place where the gateway's answers become HTTP: each answer and ending to its status, headers and problem type (docs/http-api.md). */
final class Answers {

    static final String REPLAYED = "Idempotent-Replayed";
    private static final String RETRY_AFTER = "Retry-After";

    private final Links links;
    private final Duration retention;

    /** {@code base}: the API's base URI, from the request; {@code retention}: published as {@code expires_at}. */
    Answers(URI base, Duration retention) {
        this.links = new Links(base);
        this.retention = retention;
    }

    HttpAnswer toHttp(GatewayAnswer answer) {
        if (answer instanceof GatewayAnswer.Done done) {
            return done(done);
        }
        if (answer instanceof GatewayAnswer.OutcomeUnknown unknown) {
            return problem(ProblemType.OUTCOME_UNKNOWN, unknown.operation(), unknown.escalated()
                    ? "escalated: reconciliation could not settle it, a person will; never use a new key for it"
                    : unknown.awaitingNotice()
                    ? "the target may have executed it; the gateway looks it up by this key as soon as the target announces it,"
                    + " and on its own schedule if it never does; nothing is sent again before"
                    : "the target may have executed it; the gateway looks it up by this key before anything is sent again")
                    .header(RETRY_AFTER, seconds(unknown.retryAfter()))
                    .header(HttpHeaders.LOCATION, self(unknown.operation()));
        }
        if (answer instanceof GatewayAnswer.InProgress busy) {
            return problem(ProblemType.OPERATION_IN_PROGRESS, busy.operation(), "retry with the same key after Retry-After")
                    .header(RETRY_AFTER, seconds(busy.retryAfter()));
        }
        if (answer instanceof GatewayAnswer.TryLater later) {
            return problem(ProblemType.TARGET_UNAVAILABLE, later.operation(),
                    "nothing was executed; retry with the same key after Retry-After")
                    .header(RETRY_AFTER, seconds(later.retryAfter()));
        }
        if (answer instanceof GatewayAnswer.KeyReused reused) {
            return Problem.of(ProblemType.IDEMPOTENCY_KEY_REUSED,
                            "this key names another request; nothing was executed. A new intent needs a new key")
                    .with("operation_key", reused.operation().key())
                    .answer();
        }
        if (answer instanceof GatewayAnswer.FingerprintUncheckable newer) {
            return problem(ProblemType.FINGERPRINT_SCHEME_UNKNOWN, newer.operation(), "an instance of the release that captured"
                    + " this key compares the payload; retry with the same key, never a new one")
                    .header(RETRY_AFTER, "5");
        }
        if (answer instanceof GatewayAnswer.AwaitingApproval waiting) {
            return problem(ProblemType.APPROVAL_REQUIRED, waiting.operation(), null).header(HttpHeaders.LOCATION, self(waiting.operation()));
        }
        throw new IllegalArgumentException("an answer this mapping does not know: " + answer);
    }

    Response record(OperationRecords.OperationRecord record) {
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

    private HttpAnswer done(GatewayAnswer.Done done) {
        OperationView op = done.operation();
        HttpAnswer answer = switch (done.ending()) {
            case SUCCEEDED -> {
                HttpAnswer ok = HttpAnswer.json(done.replayed() ? 200 : 201, OperationJson.of(op, selfPath(op), retention).toString());
                yield done.replayed() ? ok : ok.header(HttpHeaders.LOCATION, self(op));
            }
            case APPROVAL_LAPSED -> problem(ProblemType.APPROVAL_LAPSED, op, "the approval was "
                    + ApprovalStanding.lapseWord(op.errorCode())
                    + " before an attempt could be sent; a new attempt at the intent needs a new key and a new approval");
            case RETRIES_EXHAUSTED -> problem(ProblemType.RETRIES_EXHAUSTED, op,
                    "final for this key; a new attempt at the intent needs a new key");
            // the stored error, replayed as first answered
            case REFUSED -> problem(ProblemType.TARGET_REJECTED, op, "the target refused; sending it again would not help");
        };
        return done.replayed() ? answer.header(REPLAYED, "true") : answer;
    }

    private HttpAnswer problem(ProblemType type, OperationView op, String detail) {
        return Problem.of(type, detail)
                .with("operation_key", op.key())
                .with("operation", OperationJson.of(op, selfPath(op), retention))
                .answer();
    }

    /** As JAX-RS writes a {@code Location} it is given as a URI. */
    String self(OperationView op) {
        return links.operation(op.key()).toASCIIString();
    }

    private String selfPath(OperationView op) {
        return links.operationPath(op.key());
    }

    static String seconds(Duration duration) {
        long s = (duration.toMillis() + 999) / 1000; // round up: never invite a retry before the moment
        return Long.toString(Math.max(1, s));
    }

    /**
     * An answer as HTTP — status, reason phrase, media type, headers and body, all text — made without JAX-RS. The agents'
     * hot call writes it as it is ({@link SubmitDoor}); every JAX-RS method answers {@link #response()}. Building a JAX-RS
     * response only to read its headers back as text cost a REST replay a few in a hundred of its CPU that MCP's answer
     * does not pay (docs/benchmark.md, "REST served ahead of JAX-RS").
     *
     * @param reason null: the server's phrase for the status
     * @param contentType null with no body
     * @param body null: none
     */
    record HttpAnswer(int status, String reason, String contentType, List<Header> headers, String body) {

        record Header(String name, String value) {
        }

        HttpAnswer {
            headers = List.copyOf(headers);
        }

        static HttpAnswer json(int status, String body) {
            return new HttpAnswer(status, null, MediaType.APPLICATION_JSON, List.of(), body);
        }

        /** Another answer with one header more; its list is copied once (the record's copy of an immutable list is itself). */
        HttpAnswer header(String name, String value) {
            Header[] more = headers.toArray(new Header[headers.size() + 1]);
            more[headers.size()] = new Header(name, value);
            return new HttpAnswer(status, reason, contentType, List.of(more), body);
        }

        /** The same answer as JAX-RS writes it. */
        Response response() {
            Response.ResponseBuilder response = reason == null ? Response.status(status) : Response.status(status, reason);
            if (contentType != null) {
                response.type(contentType);
            }
            for (Header header : headers) {
                response.header(header.name(), header.value());
            }
            return response.entity(body).build();
        }

        /** A JAX-RS response (an error's, as {@code ProblemMappers} maps it) as one of these: every header read as text. */
        static HttpAnswer of(Response response) {
            List<Header> headers = new ArrayList<>();
            String contentType = null;
            for (Map.Entry<String, List<String>> header : response.getStringHeaders().entrySet()) {
                for (String value : header.getValue()) {
                    if (value == null) {
                        continue;
                    }
                    if (header.getKey().equalsIgnoreCase(HttpHeaders.CONTENT_TYPE)) {
                        contentType = value; // a server may keep its own type apart from its headers
                    } else {
                        headers.add(new Header(header.getKey(), value));
                    }
                }
            }
            Object entity = response.getEntity();
            return new HttpAnswer(response.getStatus(), response.getStatusInfo().getReasonPhrase(), contentType, headers,
                    entity == null ? null : entity.toString());
        }
    }
}

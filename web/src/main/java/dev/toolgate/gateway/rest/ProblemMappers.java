package dev.toolgate.gateway.rest;

import dev.toolgate.canonical.InvalidCommand;
import dev.toolgate.gateway.edge.ProblemException;
import dev.toolgate.gateway.edge.ProblemType;
import dev.toolgate.platform.JournalOutage;
import dev.toolgate.operation.OperationRefused;
import dev.toolgate.trace.StructuredLog;
import dev.toolgate.trace.Trace;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import dev.toolgate.gateway.edge.InputRefused;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Every error leaves as {@code application/problem+json}: never an HTML page, never a stack trace. */
final class ProblemMappers {

    private ProblemMappers() {
    }

    /** For {@link SubmitDoor}: the mapper JAX-RS would pick, the nearest type's (each extends RuntimeException). */
    static Response toResponse(Throwable e) {
        if (e instanceof OperationRefused refused) {
            return new OperationRefusal().toResponse(refused);
        }
        if (e instanceof ProblemException problem) {
            return new Refused().toResponse(problem);
        }
        if (e instanceof InputRefused input) {
            return new Edge().toResponse(input);
        }
        if (e instanceof InvalidCommand invalid) {
            return new Invalid().toResponse(invalid);
        }
        if (e instanceof WebApplicationException refusal) {
            return new Refusal().toResponse(refusal);
        }
        return new Unexpected().toResponse(e);
    }

    /** A request about an existing operation that the journal refused; one problem type per reason. */
    @Provider
    public static class OperationRefusal implements ExceptionMapper<OperationRefused> {
        @Override
        public Response toResponse(OperationRefused e) {
            return Problem.of(ProblemType.valueOf(e.reason().name()), e.getMessage()).response().build();
        }
    }

    @Provider
    public static class Refused implements ExceptionMapper<ProblemException> {
        @Override
        public Response toResponse(ProblemException e) {
            Response.ResponseBuilder response = Problem.of(e.type(), e.getMessage()).response();
            if (e.type() == ProblemType.UNAUTHENTICATED) {
                response.header("WWW-Authenticate", "Bearer realm=\"toolgate\"");
            }
            if (e.type() == ProblemType.PAYLOAD_TOO_LARGE) {
                response.header("Connection", "close"); // the unread rest of the body must not be taken for a request
            }
            if (e.retryAfter() != null) {
                response.header("Retry-After", Long.toString(Math.max(1, (e.retryAfter().toMillis() + 999) / 1000)));
            }
            return response.build();
        }
    }

    /** A value the edge's rules refuse, met by a resource's own field check (a JSON member, a query's instant). */
    @Provider
    public static class Edge implements ExceptionMapper<InputRefused> {
        @Override
        public Response toResponse(InputRefused e) {
            return Problem.of(e.kind() == InputRefused.Kind.CARD_NUMBER ? ProblemType.CARD_NUMBER_REJECTED : ProblemType.INVALID_REQUEST,
                    e.getMessage()).response().build();
        }
    }

    @Provider
    public static class Invalid implements ExceptionMapper<InvalidCommand> {
        @Override
        public Response toResponse(InvalidCommand e) {
            ProblemType type = e.reason() == InvalidCommand.Reason.CARD_NUMBER
                    ? ProblemType.CARD_NUMBER_REJECTED : ProblemType.valueOf(e.reason().name());
            Problem problem = Problem.of(type, e.getMessage());
            return (e.field() == null ? problem : problem.with("field", e.field())).response().build();
        }
    }

    /** What JAX-RS refuses itself: unknown path (404), wrong method (405), wrong content type (415). */
    @Provider
    public static class Refusal implements ExceptionMapper<WebApplicationException> {
        @Override
        public Response toResponse(WebApplicationException e) {
            int status = e.getResponse().getStatus();
            ProblemType type = ProblemType.forStatus(status);
            // a 405 keeps the Allow that JAX-RS worked out from the resource's methods: RFC 9110 requires it
            return Problem.of(type, null).response().status(status).header("Allow", e.getResponse().getHeaderString("Allow")).build();
        }
    }

    /**
     * A bug, or the journal's database away, told apart first however raised and wrapped ({@link JournalOutage}): 503
     * {@code journal-unavailable} with Retry-After, never 500, so the agent retries with the same key, which settles
     * whatever this call left (no row, or a leased {@code started} one). A bug is logged with an incident id the caller
     * can quote; no internals in either body.
     */
    @Provider
    public static class Unexpected implements ExceptionMapper<Throwable> {
        private static final Logger LOG = Logger.getLogger(Unexpected.class.getName());
        /** A PostgreSQL restart or failover takes seconds; asking sooner only adds to the queue of 503s. */
        static final Duration JOURNAL_RETRY_AFTER = Duration.ofSeconds(5);

        @Override
        public Response toResponse(Throwable e) {
            return JournalOutage.causes(e) ? journalUnavailable(e) : incident(e);
        }

        private static Response journalUnavailable(Throwable e) {
            Map<String, String> fields = new LinkedHashMap<>(Trace.logFields());
            fields.put("cause", rootCause(e));
            StructuredLog.log(LOG, Level.WARNING, "journal unavailable", fields);
            return new Refused().toResponse(new ProblemException(ProblemType.JOURNAL_UNAVAILABLE,
                    "the journal database does not answer; retry with the same key after Retry-After")
                    .retryAfter(JOURNAL_RETRY_AFTER));
        }

        /** The innermost cause's type and message: where the connection failed, never a payload. */
        private static String rootCause(Throwable e) {
            Throwable root = e;
            for (int depth = 0; root.getCause() != null && root.getCause() != root && depth < 32; depth++) {
                root = root.getCause();
            }
            return root.getClass().getSimpleName() + ": " + root.getMessage();
        }

        /** Logged by class chain and frame, never by message: a driver's message may quote a row's values. */
        private static Response incident(Throwable e) {
            String incident = StructuredLog.incident(LOG, "unexpected failure", Map.of(), e);
            return Problem.of(ProblemType.INTERNAL_ERROR, "incident " + incident).response().build();
        }
    }
}

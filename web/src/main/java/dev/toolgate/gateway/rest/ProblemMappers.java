package dev.toolgate.gateway.rest;

import dev.toolgate.canonical.InvalidCommand;
import dev.toolgate.journal.OperationRefused;
import dev.toolgate.trace.StructuredLog;
import dev.toolgate.trace.Trace;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Every error leaves as {@code application/problem+json}: never an HTML page, never a stack trace. */
final class ProblemMappers {

    private ProblemMappers() {
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
            return Problem.of(type, null).response().status(status).build();
        }
    }

    /** A bug or an outage: logged with an incident id the caller can quote; no internals in the body. */
    @Provider
    public static class Unexpected implements ExceptionMapper<Throwable> {
        private static final Logger LOG = Logger.getLogger(Unexpected.class.getName());

        @Override
        public Response toResponse(Throwable e) {
            String incident = UUID.randomUUID().toString();
            Map<String, String> fields = new LinkedHashMap<>(Map.of("incident", incident));
            fields.putAll(Trace.logFields());
            StructuredLog.log(LOG, Level.SEVERE, "unexpected failure", fields, e);
            return Problem.of(ProblemType.INTERNAL_ERROR, "incident " + incident).response().build();
        }
    }
}

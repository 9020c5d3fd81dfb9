package dev.toolgate.gateway.rest;

import dev.toolgate.gateway.edge.IdempotencyKeyHeader;
import dev.toolgate.gateway.edge.ProblemException;
import dev.toolgate.gateway.edge.ProblemType;
import dev.toolgate.gateway.rest.Answers.HttpAnswer;
import dev.toolgate.search.OperationRecords;
import dev.toolgate.access.Caller;
import dev.toolgate.access.Role;
import dev.toolgate.canonical.CommandParser;
import dev.toolgate.canonical.AgentCommand;
import dev.toolgate.gateway.CommandGateway;
import dev.toolgate.gateway.ToolCall;
import dev.toolgate.gateway.ReplayWindow;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import dev.toolgate.escalation.Escalations;
import jakarta.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;

import java.net.URI;
import java.util.List;

/**
 * {@code /api/v1/operations}: where agents submit operations and read their records. Application-scoped, the
 * request's parts passed to each method: per request, its injections (EJB references, a proxy) would be rebuilt.
 */
@Path("v1/operations")
@ApplicationScoped
public class OperationsResource {

    /** The tool a replacement agent's resume is, in its trace: the MCP tool of the same name does the same. */
    static final String RESUME = "resume_operation";

    @Inject
    CommandGateway gateway;
    @Inject
    OperationRecords records;
    @Inject
    Escalations escalations;
    @Inject
    ReplayWindow replays;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Allowed(Role.AGENT)
    public Response submit(@Context HttpHeaders headers, @Context SecurityContext security, @Context UriInfo uri, byte[] body) {
        return submit(headers.getRequestHeader(IdempotencyKeyHeader.NAME), CallerContext.of(security), uri.getBaseUri(), body)
                .response();
    }

    /** Public: {@link SubmitDoor} calls it through the container's proxy. {@code base}: the API's base URI. */
    public HttpAnswer submit(List<String> idempotencyKey, Caller caller, URI base, byte[] body) {
        // bytes, not String: a String would already have had what is not UTF-8 replaced with U+FFFD
        String key = IdempotencyKeyHeader.parse(idempotencyKey);
        AgentCommand command = CommandParser.parse(body);
        return answers(base).toHttp(gateway.submit(ToolCall.rest(command.operation()), caller, key, command));
    }

    /** By query parameter: servlet containers refuse a key's {@code /} or {@code \} in a path, even encoded. */
    @GET
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Allowed({Role.AGENT, Role.APPROVER, Role.OPERATOR, Role.AUDITOR})
    public Response findByQuery(@QueryParam("key") String key, @Context SecurityContext security, @Context UriInfo uri) {
        if (key == null || key.isEmpty()) {
            throw new ProblemException(ProblemType.INVALID_REQUEST, "name the operation: ?key=<Idempotency-Key>");
        }
        return find(key, security, uri);
    }

    /** Within the caller's tenant only: another tenant's key answers 404, as if it did not exist. */
    @GET
    @Path("{key: .+}")
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Allowed({Role.AGENT, Role.APPROVER, Role.OPERATOR, Role.AUDITOR})
    public Response find(@PathParam("key") String key, @Context SecurityContext security, @Context UriInfo uri) {
        IdempotencyKeyHeader.check(key); // only a key that could have been taken is looked up, logged or traced
        return records.find(CallerContext.of(security).tenant(), key)
                .map(record -> answers(uri).record(record))
                .orElseGet(() -> Problem.of(ProblemType.OPERATION_NOT_FOUND, null).with("operation_key", key).response().build());
    }

    /** A replacement agent continues the recorded operation: the journal's payload is what is sent, so no body. */
    @POST
    @Path("{key: .+}/resume")
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Allowed({Role.AGENT, Role.OPERATOR})
    public Response resume(@PathParam("key") String key, @Context SecurityContext security, @Context UriInfo uri, String body) {
        IdempotencyKeyHeader.check(key);
        JsonBodies.none(body, "the recorded payload is what is sent; a changed intent is a new operation with a new key");
        return answers(uri).toHttp(gateway.resume(ToolCall.rest(RESUME), CallerContext.of(security), key)).response();
    }

    /** An operator settles an escalated operation with evidence (docs/http-api.md, Bodies). */
    @POST
    @Path("{key: .+}/resolve")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Allowed(Role.OPERATOR)
    public Response resolve(@PathParam("key") String key, @Context SecurityContext security, @Context UriInfo uri, byte[] body) {
        IdempotencyKeyHeader.check(key);
        JsonObject spec = JsonBodies.object(body, "send {outcome, target_object_id | reason, evidence}");
        String evidence = JsonBodies.text(spec, "evidence", 2000);
        String outcome = JsonBodies.text(spec, "outcome", 32);
        Caller operator = CallerContext.of(security);
        try (Step resolution = Spans.step("toolgate.resolve", new OperationAttributes(operator.tenant(), key, null, null))) {
            resolution.set("toolgate.resolved_by", operator.principalId());
            try {
                switch (outcome) {
                    case "succeeded" -> escalations.resolveSucceeded(operator, key, JsonBodies.text(spec, "target_object_id", 255), evidence);
                    case "failed_final" -> escalations.resolveFailed(operator, key, JsonBodies.text(spec, "reason", 500), evidence);
                    default -> throw new ProblemException(ProblemType.INVALID_REQUEST, "outcome is succeeded or failed_final");
                }
                resolution.outcome(outcome); // one of the two: never the operator's text as sent
            } catch (RuntimeException e) {
                resolution.threw(e);
                throw e;
            }
        }
        return find(key, security, uri); // the record, with the resolution in its story
    }

    private Answers answers(UriInfo uri) {
        return answers(uri.getBaseUri());
    }

    private Answers answers(URI base) {
        return new Answers(base, replays.length());
    }
}

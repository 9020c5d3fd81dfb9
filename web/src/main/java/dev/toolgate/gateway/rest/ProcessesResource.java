package dev.toolgate.gateway.rest;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.access.Caller;
import dev.toolgate.gateway.edge.IdempotencyKeyHeader;
import dev.toolgate.gateway.edge.Inputs;
import dev.toolgate.access.Role;
import dev.toolgate.gateway.ToolCall;
import dev.toolgate.gateway.ReplayWindow;
import dev.toolgate.gateway.edge.ProblemException;
import dev.toolgate.gateway.edge.ProblemType;
import dev.toolgate.gateway.records.ProcessJson;
import dev.toolgate.process.ProcessCommand;
import dev.toolgate.process.ProcessDriver;
import dev.toolgate.process.ProcessJournal;
import dev.toolgate.process.ProcessStatus;
import dev.toolgate.process.ProcessView;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;

import java.time.Instant;
import java.util.List;

/** {@code /api/v1/processes}: where agents submit processes of several steps, read them and resume them. */
@Path("v1/processes")
@RequestScoped
public class ProcessesResource {

    static final String START = "start_process";
    static final String RESUME = "resume_process";
    private static final int MAX_PAGE = 200;

    @Inject
    ProcessDriver driver;
    @Inject
    ProcessJournal processes;
    @Inject
    ReplayWindow replays;
    @Context
    UriInfo uri;

    /** {@code {"process": <type>, "payload": {…}}} under one {@code Idempotency-Key}: the process and, derived from it, each step's key. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Allowed(Role.AGENT)
    public Response submit(@Context HttpHeaders headers, @Context SecurityContext security, byte[] body) {
        String key = IdempotencyKeyHeader.processKey(IdempotencyKeyHeader.parse(headers.getRequestHeader(IdempotencyKeyHeader.NAME)));
        ProcessCommand command = ProcessCommand.parse(body);
        return answers().toResponse(driver.submit(new ToolCall(START, null), CallerContext.of(security), key, command));
    }

    /** The tenant's processes, newest first: {@code ?status=needs_attention}, {@code ?before=<created_at>} pages on; or one, by {@code ?key=}. */
    @GET
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Allowed({Role.AGENT, Role.APPROVER, Role.OPERATOR, Role.AUDITOR})
    public Response list(@QueryParam("key") String key, @QueryParam("status") String status, @QueryParam("before") String before,
                         @QueryParam("before_key") String beforeKey, @QueryParam("limit") String limit, @Context SecurityContext security) {
        if (key != null) {
            return find(key, security);
        }
        ProcessStatus wanted = null;
        if (status != null) {
            try {
                wanted = ProcessStatus.fromDb(status);
            } catch (IllegalArgumentException e) {
                throw new ProblemException(ProblemType.INVALID_REQUEST, "status is one of running, awaiting_approval, completed,"
                        + " failed, compensating, compensated, needs_attention");
            }
        }
        Instant until = Inputs.instant("before (the created_at of an earlier page)", before);
        if (beforeKey != null) {
            IdempotencyKeyHeader.check(beforeKey);
        }
        int size = limit == null ? 50 : Inputs.whole("limit", limit, 1, MAX_PAGE).intValue();
        if ((until == null) != (beforeKey == null)) {
            throw new ProblemException(ProblemType.INVALID_REQUEST, "before and before_key go together: the next_before and"
                    + " next_before_key of the previous page");
        }
        List<ProcessView> page = processes.list(CallerContext.of(security).tenant(), wanted, until, beforeKey, size);
        JsonArrayBuilder items = JSON.createArrayBuilder();
        ProcessAnswers answers = answers();
        page.forEach(p -> items.add(ProcessJson.summary(p, answers.self(p.key()).getRawPath())));
        var json = JSON.createObjectBuilder().add("processes", items);
        if (page.size() == size) {
            json.add("next_before", page.get(page.size() - 1).createdAt().toString())
                    .add("next_before_key", page.get(page.size() - 1).key());
        }
        return Response.ok(json.build().toString(), MediaType.APPLICATION_JSON).build();
    }

    /** Within the caller's tenant only: another tenant's key answers 404, as if it did not exist. */
    @GET
    @Path("{key: .+}")
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Allowed({Role.AGENT, Role.APPROVER, Role.OPERATOR, Role.AUDITOR})
    public Response find(@PathParam("key") String key, @Context SecurityContext security) {
        IdempotencyKeyHeader.check(key); // only a key that could have been taken is looked up, logged or traced
        Caller caller = CallerContext.of(security);
        return driver.find(caller.tenant(), key).map(record -> answers().record(record))
                .orElseGet(() -> Problem.of(ProblemType.PROCESS_NOT_FOUND, null).with("process_key", key).response().build());
    }

    /** A replacement agent (or an operator) continues the recorded process with the key alone; a body of any kind is refused. */
    @POST
    @Path("{key: .+}/resume")
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Allowed({Role.AGENT, Role.OPERATOR})
    public Response resume(@PathParam("key") String key, @Context SecurityContext security, String body) {
        IdempotencyKeyHeader.check(key);
        JsonBodies.none(body, "the recorded input is what the process sends; a changed intent is a new process with a new key");
        return answers().toResponse(driver.resume(new ToolCall(RESUME, null), CallerContext.of(security), key));
    }

    /** An operator settles a process needing attention, after a person did what it could not (docs/processes.md). */
    @POST
    @Path("{key: .+}/resolve")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Allowed(Role.OPERATOR)
    public Response resolve(@PathParam("key") String key, @Context SecurityContext security, byte[] body) {
        IdempotencyKeyHeader.check(key);
        JsonObject spec = JsonBodies.object(body, "send {outcome: completed | compensated | failed, evidence}");
        String evidence = JsonBodies.text(spec, "evidence", 2000);
        ProcessStatus outcome = switch (JsonBodies.text(spec, "outcome", 32)) {
            case "completed" -> ProcessStatus.COMPLETED;
            case "compensated" -> ProcessStatus.COMPENSATED;
            case "failed" -> ProcessStatus.FAILED;
            default -> throw new ProblemException(ProblemType.INVALID_REQUEST, "outcome is completed, compensated or failed");
        };
        return answers().record(driver.resolve(CallerContext.of(security), key, outcome, evidence));
    }

    /** The same resume by query parameter: a key may hold characters ({@code /}, {@code \}) a path cannot carry. */
    @POST
    @Path("resume")
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Allowed({Role.AGENT, Role.OPERATOR})
    public Response resumeByQuery(@QueryParam("key") String key, @Context SecurityContext security, String body) {
        if (key == null || key.isEmpty()) {
            throw new ProblemException(ProblemType.INVALID_REQUEST, "name the process: ?key=<Idempotency-Key>");
        }
        return resume(key, security, body);
    }

    private ProcessAnswers answers() {
        return new ProcessAnswers(uri.getBaseUri(), replays.length());
    }
}

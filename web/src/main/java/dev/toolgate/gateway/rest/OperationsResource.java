package dev.toolgate.gateway.rest;

import dev.toolgate.access.Role;
import dev.toolgate.canonical.CommandParser;
import dev.toolgate.gateway.CommandGateway;
import dev.toolgate.journal.Journal;
import dev.toolgate.journal.JournalSettings;
import jakarta.enterprise.context.RequestScoped;
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

/** {@code /api/v1/operations}: where agents submit operations and read their records. */
@Path("v1/operations")
@RequestScoped
public class OperationsResource {

    @Inject
    CommandGateway gateway;
    @Inject
    Journal journal;
    @Inject
    JournalSettings settings;
    @Context
    UriInfo uri;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Allowed(Role.AGENT)
    public Response submit(@Context HttpHeaders headers, @Context SecurityContext security, String body) {
        String key = IdempotencyKeyHeader.parse(headers.getRequestHeader(IdempotencyKeyHeader.NAME));
        return answers().toResponse(gateway.submit(CallerContext.of(security), key, CommandParser.parse(body)));
    }

    /**
     * The same record by query parameter: a key may hold characters ({@code /}, {@code \}) that servlet
     * containers refuse in a path even when encoded, and every legal key must be readable.
     */
    @GET
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Allowed({Role.AGENT, Role.APPROVER, Role.OPERATOR, Role.AUDITOR})
    public Response findByQuery(@QueryParam("key") String key, @Context SecurityContext security) {
        if (key == null || key.isEmpty()) {
            throw new ProblemException(ProblemType.INVALID_REQUEST, "name the operation: ?key=<Idempotency-Key>");
        }
        return find(key, security);
    }

    /** Within the caller's tenant only: another tenant's key answers 404, as if it did not exist. */
    @GET
    @Path("{key: .+}")
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Allowed({Role.AGENT, Role.APPROVER, Role.OPERATOR, Role.AUDITOR})
    public Response find(@PathParam("key") String key, @Context SecurityContext security) {
        return journal.find(CallerContext.of(security).tenant(), key)
                .map(record -> answers().record(record.operation(), record.events()))
                .orElseGet(() -> Problem.of(ProblemType.OPERATION_NOT_FOUND, null).with("operation_key", key).response().build());
    }

    private Answers answers() {
        return new Answers(uri.getBaseUriBuilder(), settings.retention());
    }
}

package dev.toolgate.gateway.rest;

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
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
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
    public Response submit(@Context HttpHeaders headers, String body) {
        String key = IdempotencyKeyHeader.parse(headers.getRequestHeader(IdempotencyKeyHeader.NAME));
        return answers().toResponse(gateway.submit(key, CommandParser.parse(body)));
    }

    @GET
    @Path("{key: .+}")
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    public Response find(@PathParam("key") String key) {
        return journal.find(key)
                .map(record -> answers().record(record.operation(), record.events()))
                .orElseGet(() -> Problem.of(ProblemType.OPERATION_NOT_FOUND, null).with("operation_key", key).response().build());
    }

    private Answers answers() {
        return new Answers(uri.getBaseUriBuilder(), settings.retention());
    }
}

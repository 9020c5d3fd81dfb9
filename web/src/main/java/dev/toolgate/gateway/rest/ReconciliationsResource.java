package dev.toolgate.gateway.rest;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.access.Role;
import dev.toolgate.gateway.edge.ProblemType;
import dev.toolgate.reconcile.ReconcileRuns;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;

/**
 * {@code /api/v1/reconciliations}: start a reconcile run now (or join this instance's running one), and watch it.
 * Run ids are this instance's: the batch job repository is per server. Counts are read as the caller's tenant's only.
 */
@Path("v1/reconciliations")
@RequestScoped
public class ReconciliationsResource {

    @Inject
    ReconcileRuns reconciliations;
    @Context
    UriInfo uri;

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    @Allowed(Role.OPERATOR)
    public Response start() {
        long id = reconciliations.start();
        return Response.accepted(JSON.createObjectBuilder().add("execution_id", id).build().toString())
                .type(MediaType.APPLICATION_JSON)
                .location(uri.getAbsolutePathBuilder().path(Long.toString(id)).build()).build();
    }

    @GET
    @Path("{id: [0-9]{1,18}}")
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Allowed({Role.OPERATOR, Role.AUDITOR})
    public Response find(@PathParam("id") long id, @Context SecurityContext security) {
        return reconciliations.find(id, CallerContext.of(security).tenant()).map(run -> {
            JsonObjectBuilder counts = JSON.createObjectBuilder();
            run.counts().forEach(counts::add);
            JsonObjectBuilder json = JSON.createObjectBuilder()
                    .add("execution_id", run.executionId())
                    .add("status", run.status())
                    .add("counts", counts);
            if (run.startedAt() != null) {
                json.add("started_at", run.startedAt().toString());
            }
            if (run.endedAt() != null) {
                json.add("ended_at", run.endedAt().toString());
            }
            return Response.ok(json.build().toString(), MediaType.APPLICATION_JSON).build();
        }).orElseGet(() -> Problem.of(ProblemType.RECONCILIATION_NOT_FOUND, null).response().build());
    }
}

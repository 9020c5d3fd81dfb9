package dev.toolgate.gateway.rest;

import dev.toolgate.gateway.ReplayWindow;
import dev.toolgate.access.Role;
import dev.toolgate.escalation.Escalations;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;

/**
 * {@code GET /api/v1/escalations}: what reconciliation could not settle, oldest first. Operators resolve
 * each with {@code POST /api/v1/operations/{key}/resolve}.
 */
@Path("v1/escalations")
@RequestScoped
public class EscalationsResource {

    @Inject
    Escalations escalations;
    @Inject
    ReplayWindow replays;
    @Context
    UriInfo uri;

    @GET
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Allowed({Role.OPERATOR, Role.AUDITOR})
    public Response list(@Context SecurityContext security) {
        return new Answers(uri.getBaseUri(), replays.length())
                .list("escalations", escalations.list(CallerContext.of(security).tenant(), 200));
    }
}

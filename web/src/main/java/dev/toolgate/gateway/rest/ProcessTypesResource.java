package dev.toolgate.gateway.rest;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.access.Role;
import dev.toolgate.gateway.records.ProcessJson;
import dev.toolgate.process.ProcessCatalog;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** {@code /api/v1/process-types}: what may be started, its input, its steps and how each is compensated. */
@Path("v1/process-types")
@RequestScoped
public class ProcessTypesResource {

    @Inject
    ProcessCatalog catalog;

    @GET
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Allowed({Role.AGENT, Role.APPROVER, Role.OPERATOR, Role.AUDITOR})
    public Response list() {
        JsonArrayBuilder types = JSON.createArrayBuilder();
        catalog.types().forEach(t -> types.add(ProcessJson.type(t)));
        return Response.ok(JSON.createObjectBuilder().add("process_types", types).build().toString(), MediaType.APPLICATION_JSON).build();
    }
}

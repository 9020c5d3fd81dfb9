package dev.toolgate.gateway.rest;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.gateway.edge.Stopping;
import dev.toolgate.gateway.Readiness;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code /api/health/live} and {@code /api/health/ready}, in MicroProfile Health's JSON shape, served by the
 * application so they answer the same on every server. No credentials: a probe learns UP or DOWN and nothing else.
 * Ready: the journal lets this instance take commands ({@link Readiness}) and the instance is not stopping.
 */
@Path("health")
@RequestScoped
public class HealthResource {

    @Inject
    Readiness readiness;

    @GET
    @Unauthenticated
    @Path("live")
    @Produces(MediaType.APPLICATION_JSON)
    public Response live() {
        return answer(true, JSON.createObjectBuilder().add("name", "gateway").add("status", "UP"));
    }

    @GET
    @Unauthenticated
    @Path("ready")
    @Produces(MediaType.APPLICATION_JSON)
    public Response ready() {
        if (Stopping.underway()) {
            return answer(false, JSON.createObjectBuilder().add("name", "instance").add("status", "DOWN")
                    .add("data", JSON.createObjectBuilder().add("stopping", true)));
        }
        Readiness.JournalCheck journal = readiness.journal();
        JsonObjectBuilder check = JSON.createObjectBuilder().add("name", "journal");
        if (journal.error() != null) {
            check.add("data", JSON.createObjectBuilder().add("error", journal.error()));
        } else {
            check.add("data", JSON.createObjectBuilder().add("schema_version", journal.schemaVersion())
                    .add("expected_version", journal.expectedVersion()).add("schema_fit", journal.schemaFit())
                    .add("meaning", journal.meaning()).add("release", journal.release()));
        }
        return answer(journal.up(), check.add("status", journal.up() ? "UP" : "DOWN"));
    }

    private static Response answer(boolean up, JsonObjectBuilder check) {
        return Response.status(up ? 200 : 503).type(MediaType.APPLICATION_JSON)
                .entity(JSON.createObjectBuilder().add("status", up ? "UP" : "DOWN")
                        .add("checks", JSON.createArrayBuilder().add(check)).build().toString()).build();
    }
}

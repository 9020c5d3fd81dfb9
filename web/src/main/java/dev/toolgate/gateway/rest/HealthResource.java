package dev.toolgate.gateway.rest;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.gateway.edge.Stopping;
import dev.toolgate.journal.Journal;
import dev.toolgate.journal.JournalSchema;
import dev.toolgate.journal.ThisRelease;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObjectBuilder;
import jakarta.persistence.PersistenceException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code /api/health/live} and {@code /api/health/ready}, in MicroProfile Health's JSON shape, served by
 * the application itself so they answer the same on every server. No credentials: a probe learns UP or
 * DOWN and nothing else. Ready means the journal answers, its schema is one this release can work with — its own
 * version, or a newer one that declares it keeps this release working ({@link dev.toolgate.journal.SchemaFit}) — and
 * the instance is not stopping.
 */
@Path("health")
@RequestScoped
public class HealthResource {

    @Inject
    Journal journal;
    @Inject
    JournalSchema schema;

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
        JsonObjectBuilder check = JSON.createObjectBuilder().add("name", "journal");
        boolean up;
        try {
            String needed = schema.version();
            if (needed == null) { // this release carries no migration: nothing to be ready on
                return answer(false, check.add("status", "DOWN").add("data", JSON.createObjectBuilder().add("error", "no schema in this release")));
            }
            Journal.SchemaStanding standing = journal.schemaStanding(Integer.parseInt(needed));
            up = standing.fit().ready();
            check.add("data", JSON.createObjectBuilder().add("schema_version", standing.held() == null ? "none" : standing.held())
                    .add("expected_version", String.valueOf(schema.version()))
                    .add("schema_fit", standing.fit().name().toLowerCase(java.util.Locale.ROOT)).add("meaning", standing.fit().meaning())
                    .add("release", ThisRelease.name()));
        } catch (PersistenceException | jakarta.ejb.EJBException e) {
            up = false;
            check.add("data", JSON.createObjectBuilder().add("error", "the journal database does not answer"));
        }
        return answer(up, check.add("status", up ? "UP" : "DOWN"));
    }

    private static Response answer(boolean up, JsonObjectBuilder check) {
        return Response.status(up ? 200 : 503).type(MediaType.APPLICATION_JSON)
                .entity(JSON.createObjectBuilder().add("status", up ? "UP" : "DOWN")
                        .add("checks", JSON.createArrayBuilder().add(check)).build().toString()).build();
    }
}

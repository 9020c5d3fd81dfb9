package dev.toolgate.gateway.rest;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.access.Caller;
import dev.toolgate.access.Principals;
import dev.toolgate.access.Role;
import dev.toolgate.gateway.edge.Inputs;
import dev.toolgate.gateway.edge.ProblemException;
import dev.toolgate.gateway.edge.ProblemType;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * {@code /api/v1/principals}, for admins: create a principal (its token is shown once, in the answer),
 * rotate its token (the old one stops working at once), revoke it, list principals. No redeploy.
 */
@Path("v1/principals")
@RequestScoped
public class PrincipalsResource {

    private static final String NAME = "[A-Za-z0-9._-]{1,64}";

    @Inject
    Principals principals;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Allowed(Role.ADMIN)
    public Response create(byte[] body) {
        JsonObject spec = JsonBodies.object(body, "send {principal_id, tenant, roles}");
        String id = name(spec, "principal_id");
        String tenant = name(spec, "tenant");
        Set<Role> roles = roles(spec);
        return principals.create(id, tenant, roles)
                .map(token -> Response.status(201).type(MediaType.APPLICATION_JSON)
                        .entity(json(new Caller(id, tenant, roles)).add("token", token).build().toString()).build())
                .orElseGet(() -> Problem.of(ProblemType.PRINCIPAL_EXISTS, "rotate its token or pick another id").response().build());
    }

    @POST
    @Path("{id: " + NAME + "}/rotate")
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Allowed(Role.ADMIN)
    public Response rotate(@PathParam("id") String id) {
        return principals.rotate(id)
                .map(token -> Response.ok(JSON.createObjectBuilder().add("principal_id", id).add("token", token).build().toString(),
                        MediaType.APPLICATION_JSON).build())
                .orElseGet(() -> Problem.of(ProblemType.PRINCIPAL_NOT_FOUND, null).response().build());
    }

    @DELETE
    @Path("{id: " + NAME + "}")
    @Allowed(Role.ADMIN)
    public Response revoke(@PathParam("id") String id) {
        return principals.revoke(id) ? Response.noContent().build()
                : Problem.of(ProblemType.PRINCIPAL_NOT_FOUND, null).response().build();
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Allowed(Role.ADMIN)
    public Response list() {
        JsonArrayBuilder all = JSON.createArrayBuilder();
        principals.list().forEach(caller -> all.add(json(caller)));
        return Response.ok(all.build().toString(), MediaType.APPLICATION_JSON).build();
    }

    private static JsonObjectBuilder json(Caller caller) {
        JsonArrayBuilder roles = JSON.createArrayBuilder();
        caller.roles().forEach(role -> roles.add(role.dbName()));
        return JSON.createObjectBuilder().add("principal_id", caller.principalId()).add("tenant", caller.tenant())
                .add("roles", roles);
    }

    /** Held to the rules for every outside value ({@link Inputs#text}, docs/input.md), then to the name's own shape. */
    private static String name(JsonObject spec, String field) {
        if (spec.get(field) instanceof JsonString text) {
            Inputs.text(field, text.getString(), Inputs.Text.LINE, Inputs.MAX_VALUE);
        }
        if (!(spec.get(field) instanceof JsonString s) || !s.getString().matches(NAME)) {
            throw new ProblemException(ProblemType.INVALID_REQUEST, field + " must be 1-64 of A-Z a-z 0-9 . _ -");
        }
        return s.getString();
    }

    private static Set<Role> roles(JsonObject spec) {
        if (!(spec.get("roles") instanceof JsonArray array) || array.isEmpty()) {
            throw new ProblemException(ProblemType.INVALID_REQUEST, "roles must be a non-empty array");
        }
        Set<Role> roles = EnumSet.noneOf(Role.class);
        for (var value : array) {
            try {
                roles.add(Role.valueOf(((JsonString) value).getString().toUpperCase(Locale.ROOT)));
            } catch (ClassCastException | IllegalArgumentException e) {
                throw new ProblemException(ProblemType.INVALID_REQUEST, "roles are agent, approver, operator, auditor, admin");
            }
        }
        return roles;
    }
}

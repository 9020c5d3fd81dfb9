package dev.toolgate.gateway.rest;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.gateway.edge.ProblemType;
import dev.toolgate.gateway.rest.Answers.HttpAnswer;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.core.Response;

import java.util.List;

/** Builds RFC 9457 {@code application/problem+json} responses. */
final class Problem {

    static final String MEDIA_TYPE = "application/problem+json";

    private final ProblemType type;
    private final JsonObjectBuilder body;

    private Problem(ProblemType type, String detail) {
        this.type = type;
        this.body = JSON.createObjectBuilder()
                .add("type", type.uri())
                .add("title", type.title())
                .add("status", type.status());
        if (detail != null) {
            body.add("detail", detail);
        }
    }

    static Problem of(ProblemType type, String detail) {
        return new Problem(type, detail);
    }

    Problem with(String member, String value) {
        body.add(member, value);
        return this;
    }

    Problem with(String member, JsonObject value) {
        body.add(member, value);
        return this;
    }

    Response.ResponseBuilder response() {
        // a reason phrase of our own: some servers send "422 CUSTOM" for codes they do not know
        return Response.status(type.status(), type.reason()).type(MEDIA_TYPE).entity(body.build().toString());
    }

    /** {@link #response()}'s answer, made without JAX-RS. */
    HttpAnswer answer() {
        return new HttpAnswer(type.status(), type.reason(), MEDIA_TYPE, List.of(), body.build().toString());
    }
}

package dev.toolgate.gateway.rest;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An answer as HTTP — status, reason phrase, media type, headers and body, all text — made without JAX-RS. The agents'
 * hot call writes it as it is ({@link SubmitDoor}); every JAX-RS method answers {@link #response()}. Building a JAX-RS
 * response only to read its headers back as text cost a REST replay a few in a hundred of its CPU that MCP's answer
 * does not pay (docs/benchmark.md, "REST served ahead of JAX-RS").
 *
 * @param reason null: the server's phrase for the status
 * @param contentType null with no body
 * @param body null: none
 */
record HttpAnswer(int status, String reason, String contentType, List<Header> headers, String body) {

    record Header(String name, String value) {
    }

    HttpAnswer {
        headers = List.copyOf(headers);
    }

    static HttpAnswer json(int status, String body) {
        return new HttpAnswer(status, null, MediaType.APPLICATION_JSON, List.of(), body);
    }

    HttpAnswer header(String name, String value) {
        List<Header> more = new ArrayList<>(headers.size() + 1);
        more.addAll(headers);
        more.add(new Header(name, value));
        return new HttpAnswer(status, reason, contentType, more, body);
    }

    /** The same answer as JAX-RS writes it. */
    Response response() {
        Response.ResponseBuilder response = reason == null ? Response.status(status) : Response.status(status, reason);
        if (contentType != null) {
            response.type(contentType);
        }
        for (Header header : headers) {
            response.header(header.name(), header.value());
        }
        return response.entity(body).build();
    }

    /** A JAX-RS response (an error's, as {@code ProblemMappers} maps it) as one of these: every header read as text. */
    static HttpAnswer of(Response response) {
        List<Header> headers = new ArrayList<>();
        String contentType = null;
        for (Map.Entry<String, List<String>> header : response.getStringHeaders().entrySet()) {
            for (String value : header.getValue()) {
                if (value == null) {
                    continue;
                }
                if (header.getKey().equalsIgnoreCase(HttpHeaders.CONTENT_TYPE)) {
                    contentType = value; // a server may keep its own type apart from its headers
                } else {
                    headers.add(new Header(header.getKey(), value));
                }
            }
        }
        Object entity = response.getEntity();
        return new HttpAnswer(response.getStatus(), response.getStatusInfo().getReasonPhrase(), contentType, headers,
                entity == null ? null : entity.toString());
    }
}

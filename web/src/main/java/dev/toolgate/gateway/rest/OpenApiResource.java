package dev.toolgate.gateway.rest;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET /api/openapi.yaml}: the API described by hand; a unit test fails the build when a resource method or a
 * problem type is missing from it. Served by the application, so it is the same document on every server.
 */
@Path("openapi.yaml")
@ApplicationScoped
public class OpenApiResource {

    static final String DOCUMENT = "openapi.yaml";

    private final String document = read();

    @GET
    @Unauthenticated
    @Produces("application/yaml")
    public String describe() {
        return document;
    }

    static String read() {
        try (InputStream in = OpenApiResource.class.getResourceAsStream(DOCUMENT)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

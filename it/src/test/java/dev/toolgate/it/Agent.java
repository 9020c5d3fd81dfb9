package dev.toolgate.it;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** A principal calling the gateway over HTTP, as any client would. */
final class Agent {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private final String baseUrl;
    private final String token;

    /** {@code agent-a} of tenant {@code acme}. */
    Agent(String baseUrl) {
        this(baseUrl, "agent-a");
    }

    Agent(String baseUrl, String principal) {
        this(baseUrl, principal, baseUrl);
    }

    /**
     * Calls {@code baseUrl} with the token issued through {@code issuedAt}: instances sharing one journal
     * share its principals, so a token from one is good at all (issuing again would rotate it).
     */
    Agent(String baseUrl, String principal, String issuedAt) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.token = Credentials.token(issuedAt.endsWith("/") ? issuedAt.substring(0, issuedAt.length() - 1) : issuedAt, principal);
    }

    /** What the target stores for a key of tenant acme (Dispatch.downstreamKey). */
    static String downstream(String key) {
        return Credentials.TENANT + "/" + key;
    }

    static String invoice(String orderId, long amountMinor) {
        return "{\"operation\":\"invoice.create\",\"target\":\"1c\",\"payload\":{\"order_id\":\"" + orderId
                + "\",\"amount_minor\":" + amountMinor + ",\"currency\":\"RUB\"}}";
    }

    /** An invoice to a person, identified by a 12-digit INN: personal data the journal must not keep. */
    static String invoiceToPerson(String orderId, long amountMinor) {
        return invoice(orderId, amountMinor).replace("\"currency\":\"RUB\"", "\"currency\":\"RUB\",\"counterparty_inn\":\"" + PERSON_INN + "\"");
    }

    static final String PERSON_INN = "500100732259";

    Answer submit(String key, String body) {
        return send(operations().header("Idempotency-Key", key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** Sends without waiting: for an agent that dies, or one whose call outlives its lease. */
    CompletableFuture<HttpResponse<String>> submitAsync(String key, String body) {
        return HTTP.sendAsync(authorized(operations()).header("Idempotency-Key", key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The record by {@code ?key=}, which takes any legal key; {@link #findByPath} is the short form. */
    Answer find(String key) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + "/api/v1/operations?key=" + URLEncoder.encode(key, StandardCharsets.UTF_8))));
    }

    Answer findByPath(String key) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + "/api/v1/operations/" + URLEncoder.encode(key, StandardCharsets.UTF_8))));
    }

    HttpRequest.Builder operations() {
        return HttpRequest.newBuilder(URI.create(baseUrl + "/api/v1/operations")).timeout(Duration.ofSeconds(60));
    }

    /** Sends with this principal's token. */
    Answer send(HttpRequest.Builder request) {
        return sendAnonymously(authorized(request));
    }

    private HttpRequest.Builder authorized(HttpRequest.Builder request) {
        return request.copy().header("Authorization", "Bearer " + token);
    }

    /** Sends exactly what the builder holds: no token unless it has one. */
    Answer sendAnonymously(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** One HTTP answer, with its JSON body parsed. */
    record Answer(HttpResponse<String> response) {

        int status() {
            return response.statusCode();
        }

        String body() {
            return response.body();
        }

        JsonObject json() {
            return Json.createReader(new StringReader(response.body())).readObject();
        }

        /** The problem type's last segment, e.g. {@code idempotency-key-reused}. */
        String problem() {
            String type = json().getString("type", "");
            return type.substring(type.lastIndexOf('/') + 1);
        }

        String header(String name) {
            return response.headers().firstValue(name).orElse(null);
        }

        /** The operation in the answer: the body itself, or the problem's {@code operation} member. */
        JsonObject operation() {
            JsonObject json = json();
            return json.containsKey("type") ? json.getJsonObject("operation") : json; // a problem carries it as a member
        }
    }
}

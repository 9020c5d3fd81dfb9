package dev.toolgate.it.support;

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
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/** A principal calling the gateway over HTTP, as any client would. */
public final class Agent {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private final String baseUrl;
    private final String token;

    /** {@code agent-a} of tenant {@code acme}. */
    public Agent(String baseUrl) {
        this(baseUrl, "agent-a");
    }

    public Agent(String baseUrl, String principal) {
        this(baseUrl, principal, baseUrl);
    }

    /**
     * Calls {@code baseUrl} with the token issued through {@code issuedAt}: instances sharing one journal
     * share its principals, so a token from one is good at all (issuing again would rotate it).
     */
    public Agent(String baseUrl, String principal, String issuedAt) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.token = Credentials.token(issuedAt.endsWith("/") ? issuedAt.substring(0, issuedAt.length() - 1) : issuedAt, principal);
    }

    /** What the target stores for a key of tenant acme (Attempt.downstreamKey). */
    public static String downstream(String key) {
        return Credentials.TENANT + "/" + key;
    }

    public static String invoice(String orderId, long amountMinor) {
        return "{\"operation\":\"invoice.create\",\"target\":\"1c\",\"payload\":{\"order_id\":\"" + orderId
                + "\",\"amount_minor\":" + amountMinor + ",\"currency\":\"RUB\"}}";
    }

    /** An invoice to a person, identified by a 12-digit INN: personal data the journal must not keep. */
    public static String invoiceToPerson(String orderId, long amountMinor) {
        return invoice(orderId, amountMinor).replace("\"currency\":\"RUB\"", "\"currency\":\"RUB\",\"counterparty_inn\":\"" + PERSON_INN + "\"");
    }

    public static final String PERSON_INN = "500100732259";

    public Answer submit(String key, String body) {
        return send(operations().header("Idempotency-Key", key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** Sends without waiting: for an agent that dies, or one whose call outlives its lease. */
    public CompletableFuture<HttpResponse<String>> submitAsync(String key, String body) {
        return HTTP.sendAsync(authorized(operations()).header("Idempotency-Key", key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The record by {@code ?key=}, which takes any legal key; {@link #findByPath} is the short form. */
    public Answer find(String key) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + "/api/v1/operations?key=" + URLEncoder.encode(key, StandardCharsets.UTF_8))));
    }

    public Answer findByPath(String key) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + "/api/v1/operations/" + URLEncoder.encode(key, StandardCharsets.UTF_8))));
    }

    public HttpRequest.Builder operations() {
        return HttpRequest.newBuilder(URI.create(baseUrl + "/api/v1/operations")).timeout(Duration.ofSeconds(60));
    }

    /** Starts a reconcile run (as an operator) and waits for it to complete: the run as this principal reads it. */
    public JsonObject reconcile() throws InterruptedException {
        Answer started = send(HttpRequest.newBuilder(URI.create(baseUrl + "/api/v1/reconciliations")).POST(HttpRequest.BodyPublishers.noBody()));
        if (started.status() != 202) {
            throw new AssertionError("starting a reconcile run: " + started.status() + " " + started.body());
        }
        return awaitRun(started.header("Location"));
    }

    /** Reads the reconcile run at {@code location} until it completes, for at most 60 s. */
    public JsonObject awaitRun(String location) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        while (Instant.now().isBefore(deadline)) {
            Answer answer = send(HttpRequest.newBuilder(URI.create(location)));
            if (answer.status() != 200) {
                throw new AssertionError(location + " -> " + answer.status() + " " + answer.body());
            }
            JsonObject run = answer.json();
            if (run.getString("status").equals("COMPLETED")) {
                return run;
            }
            if (run.getString("status").equals("FAILED")) {
                throw new AssertionError("the reconcile run failed: " + run);
            }
            Thread.sleep(250); // a run's status is only read, never announced
        }
        throw new AssertionError("the reconcile run did not complete within 60 s");
    }

    /** Sends with this principal's token. */
    public Answer send(HttpRequest.Builder request) {
        return sendAnonymously(authorized(request));
    }

    private HttpRequest.Builder authorized(HttpRequest.Builder request) {
        return request.copy().header("Authorization", "Bearer " + token);
    }

    /** Sends exactly what the builder holds: no token unless it has one. */
    public Answer sendAnonymously(HttpRequest.Builder request) {
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
    public record Answer(HttpResponse<String> response) {

        public int status() {
            return response.statusCode();
        }

        public String body() {
            return response.body();
        }

        public JsonObject json() {
            return Json.createReader(new StringReader(response.body())).readObject();
        }

        /** The problem type's last segment, e.g. {@code idempotency-key-reused}. */
        public String problem() {
            String type = json().getString("type", "");
            return type.substring(type.lastIndexOf('/') + 1);
        }

        public String header(String name) {
            return response.headers().firstValue(name).orElse(null);
        }

        /** The operation in the answer: the body itself, or the problem's {@code operation} member. */
        public JsonObject operation() {
            JsonObject json = json();
            return json.containsKey("type") ? json.getJsonObject("operation") : json; // a problem carries it as a member
        }
    }
}

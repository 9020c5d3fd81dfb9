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

/** An agent calling the gateway over HTTP, as any client would. */
final class Agent {

    private final String baseUrl;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    Agent(String baseUrl) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    }

    static String invoice(String orderId, long amountMinor) {
        return "{\"operation\":\"invoice.create\",\"target\":\"1c\",\"payload\":{\"order_id\":\"" + orderId
                + "\",\"amount_minor\":" + amountMinor + ",\"currency\":\"RUB\"}}";
    }

    Answer submit(String key, String body) {
        return send(operations().header("Idempotency-Key", key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** Sends without waiting: for an agent that dies, or one whose call outlives its lease. */
    CompletableFuture<HttpResponse<String>> submitAsync(String key, String body) {
        return http.sendAsync(operations().header("Idempotency-Key", key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    Answer find(String key) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + "/api/v1/operations/" + URLEncoder.encode(key, StandardCharsets.UTF_8))));
    }

    HttpRequest.Builder operations() {
        return HttpRequest.newBuilder(URI.create(baseUrl + "/api/v1/operations")).timeout(Duration.ofSeconds(60));
    }

    Answer send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
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

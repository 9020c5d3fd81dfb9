package dev.toolgate.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.simulator.Simulators;
import jakarta.json.Json;
import jakarta.json.JsonObject;

import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.UUID;

/** Another client of the same YooKassa shop, past the gateway: the shop's own payments, or a racing duplicate. */
public final class YooKassaDirect {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private YooKassaDirect() {
    }

    /** POSTs {@code body} to {@code resource} under a fresh Idempotence-Key and returns the created object. */
    public static JsonObject create(String resource, String body) {
        try {
            HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(TestStack.yooKassaUrl() + resource))
                    .header("Authorization", "Basic " + Base64.getEncoder().encodeToString((Simulators.YOOKASSA_SHOP_ID + ":"
                            + Simulators.YOOKASSA_SECRET_KEY).getBytes(StandardCharsets.UTF_8)))
                    .header("Idempotence-Key", UUID.randomUUID().toString())
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, answer.statusCode(), answer.body());
            return Json.createReader(new StringReader(answer.body())).readObject();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

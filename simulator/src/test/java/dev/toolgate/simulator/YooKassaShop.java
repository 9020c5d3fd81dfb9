package dev.toolgate.simulator;

import jakarta.json.JsonObject;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.UUID;

/** The tests' YooKassa client: the shop's real calls, with its Basic credentials and a new Idempotence-Key each. */
final class YooKassaShop {

    private final HttpClient http = HttpClient.newHttpClient();
    private final String root;

    YooKassaShop(Simulators simulators) {
        this.root = Simulators.yooKassaUrl(simulators.baseUrl());
    }

    JsonObject createPayment(String value) throws IOException, InterruptedException {
        return ok(post("payments", "{\"amount\":{\"value\":\"" + value + "\",\"currency\":\"RUB\"},\"capture\":true,"
                + "\"description\":\"Заказ\",\"metadata\":{\"gw_key\":\"" + UUID.randomUUID() + "\"}}"));
    }

    JsonObject createRefund(String paymentId, String value) throws IOException, InterruptedException {
        return ok(post("refunds", "{\"payment_id\":\"" + paymentId + "\",\"amount\":{\"value\":\"" + value + "\",\"currency\":\"RUB\"}}"));
    }

    /** {@code GET /v3/<path>}: the object as the API reads it now. */
    JsonObject get(String path) throws IOException, InterruptedException {
        return ok(send(request(path).GET()));
    }

    HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        return send(request(path).header("Idempotence-Key", UUID.randomUUID().toString()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    HttpResponse<String> delete(String path) throws IOException, InterruptedException {
        return send(request(path).DELETE());
    }

    private HttpRequest.Builder request(String path) {
        String credentials = Simulators.YOOKASSA_SHOP_ID + ":" + Simulators.YOOKASSA_SECRET_KEY;
        return HttpRequest.newBuilder(URI.create(root + path))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonObject ok(HttpResponse<String> response) {
        if (response.statusCode() != 200) {
            throw new AssertionError("YooKassa answered " + response.statusCode() + ": " + response.body());
        }
        return SimHttp.object(response.body());
    }
}

package dev.toolgate.it.support;

import dev.toolgate.simulator.Simulators;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** Talks to the 1C simulator as another client would (its OData API, not the control API). */
public final class OneCDirect {

    private OneCDirect() {
    }

    /** Creates an invoice carrying {@code key}, as if someone had done so outside the gateway. */
    public static void createDocument(String key) {
        // the same infobase the gateway reaches over HTTPS; this other client takes the plain port
        String url = Simulators.oneCUrl(TestStack.simulatorsUrl()) + "/"
                + URLEncoder.encode("Document_СчетНаОплатуПокупателю", StandardCharsets.UTF_8) + "?$format=json";
        String body = "{\"Date\":\"2026-11-30T12:00:00\",\"Организация_Key\":\"" + Simulators.oneCOrganizationKey()
                + "\",\"СуммаДокумента\":50.00,\"" + Simulators.ONE_C_KEY_REQUISITE + "\":\"" + key + "\"}";
        String auth = Base64.getEncoder().encodeToString((Simulators.ONE_C_USER + ":" + Simulators.ONE_C_PASSWORD)
                .getBytes(StandardCharsets.UTF_8));
        try {
            HttpResponse<String> created = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                    .header("Authorization", "Basic " + auth).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            if (created.statusCode() != 201) {
                throw new IllegalStateException("the simulator refused the document: " + created.body());
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

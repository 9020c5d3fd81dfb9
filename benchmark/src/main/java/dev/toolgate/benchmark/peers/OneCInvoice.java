package dev.toolgate.benchmark.peers;

import dev.toolgate.simulator.Simulators;
import jakarta.json.Json;
import jakarta.json.JsonObject;

import java.io.StringReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The invoice document the gateway's 1C adapter sends, as a request to the 1C simulator: the one effect every
 * system in the benchmark makes, the gateway and its peers alike. The document carries its key in the key
 * requisite, as the adapter's does.
 */
public final class OneCInvoice {

    private OneCInvoice() {
    }

    /** The POST that creates the invoice keyed {@code downstreamKey} at the 1C simulator behind {@code simulatorsUrl}. */
    public static HttpRequest create(String simulatorsUrl, String downstreamKey) {
        String body = "{\"Date\":\"2026-11-30T12:00:00\",\"Организация_Key\":\"" + Simulators.oneCOrganizationKey()
                + "\",\"ВалютаДокумента_Key\":\"5e1d7a3c-0643-4f00-8000-000000000643\",\"СуммаДокумента\":1250.00,"
                + "\"Комментарий\":\"Toolgate: заказ o\",\"" + Simulators.ONE_C_KEY_REQUISITE + "\":\"" + downstreamKey + "\"}";
        return HttpRequest.newBuilder(URI.create(invoices(simulatorsUrl) + "?$format=json"))
                .header("Authorization", authorization()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    /**
     * Sends it and answers what a caller keeps of the created document, its reference and number, as JSON (what a
     * peer stores as its step's result); anything but 201 is an exception, for the peer's engine to retry.
     */
    public static String send(HttpClient http, String simulatorsUrl, String downstreamKey) throws Exception {
        HttpResponse<String> answer = http.send(create(simulatorsUrl, downstreamKey), HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 201) {
            throw new IllegalStateException("1C answered " + answer.statusCode() + ": " + answer.body());
        }
        JsonObject document = Json.createReader(new StringReader(answer.body())).readObject();
        return Json.createObjectBuilder().add("ref", document.getString("Ref_Key")).add("number", document.getString("Number"))
                .build().toString();
    }

    /** The 1C simulator's invoice documents, the entity set the 1C adapter writes and looks up in. */
    public static String invoices(String simulatorsUrl) {
        return Simulators.oneCUrl(simulatorsUrl) + "/" + URLEncoder.encode("Document_СчетНаОплатуПокупателю", StandardCharsets.UTF_8);
    }

    public static String authorization() {
        return "Basic " + Base64.getEncoder().encodeToString((Simulators.ONE_C_USER + ":" + Simulators.ONE_C_PASSWORD)
                .getBytes(StandardCharsets.UTF_8));
    }
}

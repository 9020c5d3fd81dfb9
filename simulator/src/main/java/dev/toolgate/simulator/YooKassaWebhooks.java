package dev.toolgate.simulator;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The subscriptions of YooKassa's webhooks API ({@code POST/GET /v3/webhooks}, {@code DELETE /v3/webhooks/{id}};
 * the partner flavour, here under the shop's Basic credentials) and the notification each subscribed URL is
 * sent: {@code {"type":"notification","event":…,"object":{…}}}, the object as a GET reads it at that moment.
 */
final class YooKassaWebhooks {

    static final Set<String> EVENTS = Set.of("payment.waiting_for_capture", "payment.succeeded", "payment.canceled",
            "refund.succeeded");

    private final Map<String, JsonObject> hooks = new LinkedHashMap<>(); // by id, in order of subscription

    /**
     * {@code {"event","url"}} → {@code {"id":"wh-…","event","url"}}. The same event and URL again answer the
     * subscription there is, so no URL is sent one change twice.
     */
    synchronized OneCOData.Reply subscribe(JsonObject body) {
        if (!(body.get("event") instanceof JsonString event) || !EVENTS.contains(event.getString())) {
            return new OneCOData.Reply(400, YooKassaErrors.error("invalid_request",
                    "event must be one of " + String.join(", ", EVENTS.stream().sorted().toList()), "event"));
        }
        if (!(body.get("url") instanceof JsonString url) || !isHttpUrl(url.getString())) {
            return new OneCOData.Reply(400, YooKassaErrors.error("invalid_request", "url must be an absolute http(s) URL", "url"));
        }
        for (JsonObject hook : hooks.values()) {
            if (hook.getString("event").equals(event.getString()) && hook.getString("url").equals(url.getString())) {
                return new OneCOData.Reply(200, hook);
            }
        }
        JsonObject hook = Json.createObjectBuilder().add("id", "wh-" + UUID.randomUUID()).add("event", event)
                .add("url", url).build();
        hooks.put(hook.getString("id"), hook);
        return new OneCOData.Reply(200, hook);
    }

    synchronized OneCOData.Reply list() {
        JsonArrayBuilder items = Json.createArrayBuilder();
        hooks.values().forEach(items::add);
        return new OneCOData.Reply(200, Json.createObjectBuilder().add("type", "list").add("items", items).build());
    }

    synchronized OneCOData.Reply remove(String id) {
        return hooks.remove(id) == null ? new OneCOData.Reply(404, YooKassaErrors.error("not_found", "Webhook not found", null))
                : new OneCOData.Reply(200, JsonValue.EMPTY_JSON_OBJECT);
    }

    /** What each URL subscribed to {@code event} is sent about {@code object}. */
    synchronized List<Notifications.Message> messages(String event, JsonObject object) {
        String body = Json.createObjectBuilder().add("type", "notification").add("event", event).add("object", object)
                .build().toString();
        return hooks.values().stream().filter(h -> h.getString("event").equals(event))
                .map(h -> new Notifications.Message(h.getString("url"), "application/json", body)).toList();
    }

    synchronized void clear() {
        hooks.clear();
    }

    private static boolean isHttpUrl(String text) {
        try {
            URI uri = new URI(text);
            return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null;
        } catch (URISyntaxException e) {
            return false;
        }
    }
}

package dev.toolgate.gateway.notifications;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.canonical.CardNumbers;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.stream.JsonParser;

import java.io.ByteArrayInputStream;
import java.util.Map;
import java.util.regex.Pattern;

/** YooKassa's HTTP notification: only the event, the object's id and our key in its metadata are read; the look-up decides. */
final class YooKassaNotifications {

    private static final Map<String, String> EVENTS = Map.of("payment.succeeded", "payment", "payment.waiting_for_capture", "payment",
            "payment.canceled", "payment", "refund.succeeded", "refund");
    /** YooKassa's ids are UUID-like ({@code 2d8c5e0c-000f-5000-9000-1d5d6e1e8f1a}); nothing longer or stranger is looked up. */
    static final Pattern OBJECT_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");
    private static final Pattern EVENT = Pattern.compile("[a-z_]{1,32}\\.[a-z_]{1,32}");

    private YooKassaNotifications() {
    }

    static Announcement read(byte[] body) {
        JsonObject notification;
        try (JsonParser parser = JSON.createParser(new ByteArrayInputStream(body))) {
            // one object and nothing after it: a reader would take the first of "{…}{…}" and ignore the rest
            notification = parser.hasNext() && parser.next() == JsonParser.Event.START_OBJECT ? parser.getObject() : null;
            if (notification == null || parser.hasNext()) {
                return new Announcement.Malformed("the body is not one JSON object");
            }
        } catch (RuntimeException e) { // JsonException; and Parsson refuses nesting past its limit (1,000) with a bare RuntimeException
            return new Announcement.Malformed("the body is not one JSON object");
        }
        if (!"notification".equals(string(notification, "type"))) {
            return new Announcement.Malformed("\"type\" must be \"notification\"");
        }
        String event = string(notification, "event");
        if (event == null || !EVENT.matcher(event).matches()) {
            return new Announcement.Malformed("\"event\" must name an event, e.g. payment.succeeded");
        }
        if (!EVENTS.containsKey(event)) {
            return new Announcement.Ignored(event);
        }
        if (!(notification.get("object") instanceof JsonObject object)) {
            return new Announcement.Malformed("\"object\" must be the object the event is about");
        }
        String id = string(object, "id");
        if (id == null || !OBJECT_ID.matcher(id).matches() || CardNumbers.contains(id)) { // it is logged and journaled
            return new Announcement.Malformed("\"object.id\" must be a YooKassa object id");
        }
        String key = object.get("metadata") instanceof JsonObject metadata ? string(metadata, "gw_key") : null;
        return new Announcement.Change(event, EVENTS.get(event), id, key);
    }

    private static String string(JsonObject object, String name) {
        return object.get(name) instanceof JsonString text ? text.getString() : null;
    }
}

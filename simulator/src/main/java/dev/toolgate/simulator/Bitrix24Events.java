package dev.toolgate.simulator;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Bitrix24 event handlers bound through the incoming webhook ({@code event.bind}, {@code event.get},
 * {@code event.unbind}; b24-rest-docs {@code api-reference/events/}) and the event each handler is sent: a form
 * POST of {@code event}, {@code event_handler_id}, {@code data[FIELDS][ID]}, {@code ts} and {@code auth[…]} with
 * the portal's address, member id and application token. The portal calls each handler once: a failed call is
 * logged on its side and never repeated (b24-rest-docs {@code api-reference/events/index.md}).
 */
final class Bitrix24Events {

    static final Set<String> EVENTS = Set.of("ONCRMDEALADD", "ONCRMDEALUPDATE");
    private static final String SERVER_ENDPOINT = "https://oauth.bitrix.info/rest/"; // the OAuth server every portal names
    private static final String MEMBER_ID = "9c2b5e7d14f0a3865be1d2c4f7a90e31"; // the portal's id, as events carry it
    private static final String FORM = "application/x-www-form-urlencoded; charset=utf-8";

    /** One handler of one event; {@code portal} is the REST root the binding call came to, as its caller reaches it. */
    private record Binding(int id, String event, String handler, String authType, String portal) {
    }

    private final String applicationToken;
    private final Notifications notifications;
    private final List<Binding> bindings = new ArrayList<>();
    private int nextId;

    Bitrix24Events(String applicationToken, Notifications notifications) {
        this.applicationToken = applicationToken;
        this.notifications = notifications;
        clear();
    }

    /** {@code event}, {@code handler}, {@code auth_type}? (user id, default 0), {@code event_type}? (online only here). */
    synchronized OneCOData.Reply bind(JsonObject params, String portal) {
        String event = text(params, "event").toUpperCase(Locale.ROOT);
        String handler = text(params, "handler");
        String authType = text(params, "auth_type").isEmpty() ? "0" : text(params, "auth_type");
        if (!EVENTS.contains(event)) {
            return failure("ERROR_EVENT_NOT_FOUND", "Event not found");
        }
        OneCOData.Reply badHandler = checkHandler(handler);
        if (badHandler != null) {
            return badHandler;
        }
        if (!text(params, "event_type").isEmpty() && !"online".equals(text(params, "event_type"))) {
            return failure("ERROR_EVENT_TYPE", "Offline events are not simulated: bind online handlers");
        }
        if (bindings.stream().anyMatch(b -> b.event().equals(event) && b.handler().equals(handler) && b.authType().equals(authType))) {
            return failure("ERROR_CORE", "Handler already binded");
        }
        bindings.add(new Binding(nextId++, event, handler, authType, portal));
        return new OneCOData.Reply(200, Json.createObjectBuilder().add("result", true).build());
    }

    synchronized OneCOData.Reply get() {
        JsonArrayBuilder result = Json.createArrayBuilder();
        bindings.forEach(b -> result.add(Json.createObjectBuilder().add("event", b.event()).add("handler", b.handler())
                .add("auth_type", b.authType()).add("offline", 0)));
        return new OneCOData.Reply(200, Json.createObjectBuilder().add("result", result).build());
    }

    /** Removes the handlers matching every parameter given ({@code event}, {@code handler}, {@code auth_type}). */
    synchronized OneCOData.Reply unbind(JsonObject params) {
        String event = text(params, "event").toUpperCase(Locale.ROOT);
        String handler = text(params, "handler");
        String authType = text(params, "auth_type");
        int before = bindings.size();
        bindings.removeIf(b -> (event.isEmpty() || b.event().equals(event)) && (handler.isEmpty() || b.handler().equals(handler))
                && (authType.isEmpty() || b.authType().equals(authType)));
        return new OneCOData.Reply(200, Json.createObjectBuilder()
                .add("result", Json.createObjectBuilder().add("count", before - bindings.size())).build());
    }

    /** {@code event} on deal {@code dealId}: each handler bound to it is sent the event once. */
    synchronized void dealChanged(String event, int dealId) {
        String ts = Long.toString(Instant.now().getEpochSecond());
        List<Notifications.Message> messages = bindings.stream().filter(b -> b.event().equals(event))
                .map(b -> new Notifications.Message(b.handler(), FORM, form(b, Integer.toString(dealId), ts))).toList();
        notifications.changed(new Notifications.Change(Bitrix24Rest.SYSTEM, event, Integer.toString(dealId), List.of()), messages);
    }

    synchronized void clear() {
        bindings.clear();
        nextId = 1;
    }

    private String form(Binding binding, String dealId, String ts) {
        URI portal = URI.create(binding.portal());
        String domain = portal.getHost() + (portal.getPort() == -1 ? "" : ":" + portal.getPort());
        return Forms.encode(List.of(
                Map.entry("event", binding.event()),
                Map.entry("event_handler_id", Integer.toString(binding.id())),
                Map.entry("data[FIELDS][ID]", dealId),
                Map.entry("ts", ts),
                Map.entry("auth[domain]", domain),
                Map.entry("auth[client_endpoint]", binding.portal()),
                Map.entry("auth[server_endpoint]", SERVER_ENDPOINT),
                Map.entry("auth[member_id]", MEMBER_ID),
                Map.entry("auth[application_token]", applicationToken)));
    }

    /** The portal's checks of a handler URL, with its error codes. */
    private static OneCOData.Reply checkHandler(String handler) {
        URI uri;
        try {
            uri = new URI(handler);
        } catch (URISyntaxException e) {
            return failure("ERROR_WRONG_HANDLER_URL", "Wrong handler URL");
        }
        if (!uri.isAbsolute() || uri.getHost() == null) {
            return failure("ERROR_WRONG_HANDLER_URL", "Wrong handler URL");
        }
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
            return failure("ERROR_UNSUPPORTED_PROTOCOL", "Unsupported event handler protocol");
        }
        return null;
    }

    /** A parameter as text, a number as its digits (JSON bodies may carry {@code auth_type} as either); "" if absent. */
    private static String text(JsonObject params, String name) {
        JsonValue value = params.get(name);
        if (value instanceof JsonString s) {
            return s.getString().trim();
        }
        return value instanceof JsonNumber n ? n.toString() : "";
    }

    private static OneCOData.Reply failure(String code, String description) {
        return new OneCOData.Reply(400, Bitrix24Rest.error(code, description));
    }
}

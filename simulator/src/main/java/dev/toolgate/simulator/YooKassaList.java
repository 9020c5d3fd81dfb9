package dev.toolgate.simulator;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * YooKassa's list calls: {@code created_at.gte/gt/lte/lt}, {@code payment_id}, {@code status}, {@code limit}
 * (1-100) and {@code cursor}, newest first, and no metadata filter.
 */
final class YooKassaList {

    private YooKassaList() {
    }

    /**
     * Newest first. The cursor names the last item given (opaque to the client), so objects created
     * while a client pages never shift an item out of its view.
     */
    static OneCOData.Reply page(Collection<YooKassaObject> objects, Map<String, String> query) {
        int limit;
        long before;
        Predicate<JsonObject> filter;
        try {
            limit = Integer.parseInt(query.getOrDefault("limit", "10"));
            before = query.containsKey("cursor") ? Long.parseLong(new String(Base64.getUrlDecoder().decode(query.get("cursor")),
                    StandardCharsets.UTF_8)) : Long.MAX_VALUE;
            filter = filter(query);
        } catch (IllegalArgumentException | DateTimeParseException e) {
            return new OneCOData.Reply(400, YooKassaErrors.error("invalid_request", "Invalid list parameters", null));
        }
        if (limit < 1 || limit > 100) {
            return new OneCOData.Reply(400, YooKassaErrors.error("invalid_request", "limit must be between 1 and 100", "limit"));
        }
        List<YooKassaObject> matching = objects.stream().filter(o -> o.sequence() < before && filter.test(o.now()))
                .sorted(Comparator.comparingLong(YooKassaObject::sequence).reversed()).toList();
        JsonArrayBuilder items = Json.createArrayBuilder();
        matching.stream().limit(limit).forEach(o -> items.add(o.now()));
        JsonObjectBuilder page = Json.createObjectBuilder().add("type", "list").add("items", items);
        if (matching.size() > limit) {
            String last = Long.toString(matching.get(limit - 1).sequence());
            page.add("next_cursor", Base64.getUrlEncoder().encodeToString(last.getBytes(StandardCharsets.UTF_8)));
        }
        return new OneCOData.Reply(200, page.build());
    }

    private static Predicate<JsonObject> filter(Map<String, String> query) {
        Predicate<JsonObject> filter = o -> true;
        for (Map.Entry<String, String> p : query.entrySet()) {
            String value = p.getValue();
            filter = filter.and(switch (p.getKey()) {
                case "payment_id" -> o -> value.equals(o.getString("payment_id", null));
                case "status" -> o -> value.equals(o.getString("status"));
                case "created_at.gte" -> o -> !Instant.parse(o.getString("created_at")).isBefore(Instant.parse(value));
                case "created_at.gt" -> o -> Instant.parse(o.getString("created_at")).isAfter(Instant.parse(value));
                case "created_at.lte" -> o -> !Instant.parse(o.getString("created_at")).isAfter(Instant.parse(value));
                case "created_at.lt" -> o -> Instant.parse(o.getString("created_at")).isBefore(Instant.parse(value));
                case "limit", "cursor" -> o -> true;
                default -> throw new IllegalArgumentException(p.getKey());
            });
            if (p.getKey().startsWith("created_at")) {
                Instant.parse(value); // refuse a malformed bound up front, not per item
            }
        }
        return filter;
    }
}

package dev.toolgate.simulator;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.math.BigDecimal;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * YooKassa's documented error bodies, {@code {"type":"error","id","code","description","parameter"}}, and the
 * checks of a create's amount and metadata that answer with them.
 */
final class YooKassaErrors {

    private static final Pattern VALUE = Pattern.compile("\\d{1,10}\\.\\d{2}");
    private static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");
    private static final int MAX_METADATA_KEYS = 16;

    private YooKassaErrors() {
    }

    /** The documented 400 for an invalid amount or metadata; null when both are valid. */
    static OneCOData.Reply invalid(JsonObject body) {
        String problem = amountProblem(body.get("amount"));
        if (problem == null) {
            problem = metadataProblem(body.get("metadata"));
        }
        return problem == null ? null : new OneCOData.Reply(400, error("invalid_request",
                problem.substring(problem.indexOf(' ') + 1), problem.substring(0, problem.indexOf(' '))));
    }

    private static String amountProblem(JsonValue amount) {
        if (!(amount instanceof JsonObject a) || !(a.get("value") instanceof JsonString v) || !VALUE.matcher(v.getString()).matches()
                || new BigDecimal(v.getString()).signum() <= 0) {
            return "amount.value Amount value must be a positive decimal with two fraction digits";
        }
        if (!(a.get("currency") instanceof JsonString c) || !CURRENCY.matcher(c.getString()).matches()) {
            return "amount.currency Currency must be an ISO 4217 code";
        }
        return null;
    }

    private static String metadataProblem(JsonValue metadata) {
        if (metadata == null) {
            return null;
        }
        if (!(metadata instanceof JsonObject m) || m.size() > MAX_METADATA_KEYS
                || m.values().stream().anyMatch(v -> !(v instanceof JsonString s) || s.getString().length() > 512)) {
            return "metadata Metadata is at most 16 string values of at most 512 characters";
        }
        return null;
    }

    /** The documented error bodies for a status an armed fault asks for; 202 is "accepted, not processed yet". */
    static OneCOData.Reply statusError(int status) {
        JsonObject body = switch (status) {
            case 202 -> Json.createObjectBuilder().add("type", "processing")
                    .add("description", "Request accepted, but not processed yet. Repeat it with the same Idempotence-Key")
                    .add("retry_after", 1800).build();
            case 429 -> error("too_many_requests", "Too many requests", null);
            case 500 -> error("internal_server_error", "Internal server error. The result of the request is unknown", null);
            case 401 -> error("invalid_credentials", "Authentication by given credentials failed", null);
            case 403 -> error("forbidden", "Operation is forbidden for this shop", null);
            case 404 -> error("not_found", "Object not found", null);
            default -> error("internal_server_error", "Gateway error", null);
        };
        return new OneCOData.Reply(status, body);
    }

    static JsonObject error(String code, String description, String parameter) {
        JsonObjectBuilder error = Json.createObjectBuilder().add("type", "error").add("id", UUID.randomUUID().toString())
                .add("code", code).add("description", description);
        if (parameter != null) {
            error.add("parameter", parameter);
        }
        return error.build();
    }
}

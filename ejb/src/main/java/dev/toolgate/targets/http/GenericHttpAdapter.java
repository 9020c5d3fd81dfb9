package dev.toolgate.targets.http;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.targets.Attempt;
import dev.toolgate.targets.Exchange;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.Target;
import dev.toolgate.targets.TargetHttpClient;
import dev.toolgate.targets.TargetRequest;
import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** One configured HTTP target: sends an attempt and looks it up exactly as {@link HttpTargetSettings} describes. */
public final class GenericHttpAdapter implements Target {

    private final String system;
    private final HttpTargetSettings settings;
    private final TargetHttpClient http;

    public GenericHttpAdapter(String system, HttpTargetSettings settings) {
        this.system = system;
        this.settings = settings;
        this.http = new TargetHttpClient(settings.connectTimeout(), settings.readTimeout(), settings.tls());
    }

    @Override
    public String system() {
        return system;
    }

    @Override
    public Outcome execute(Attempt dispatch) {
        boolean targetDedups = settings.idempotencyHeader() != null
                && Instant.now().isBefore(dispatch.createdAt().plus(settings.dedupWindow()));
        if (dispatch.attempt() > 1 && !targetDedups) { // nothing at the target makes a re-send safe: look first
            Outcome earlier = Lookup.beforeResend(lookup(dispatch));
            if (earlier != null) {
                return earlier;
            }
        }
        TargetRequest request = request(settings.method(), settings.url().url(dispatch),
                settings.body() == null ? null : settings.body().json(dispatch));
        if (settings.idempotencyHeader() != null) {
            request.header(settings.idempotencyHeader(), dispatch.downstreamKey());
        }
        return outcomeOf(http.sendEffect(request, dispatch.gate()));
    }

    @Override
    public Lookup lookup(Attempt dispatch) {
        Exchange exchange = http.send(request(settings.lookupMethod(), settings.lookupUrl().url(dispatch), null));
        if (!(exchange instanceof Exchange.Answered answered)) {
            return new Lookup.Unavailable("target_unreachable");
        }
        if (settings.itemsPointer() == null && answered.status() == 404) {
            return new Lookup.Absent();
        }
        JsonObject body = TargetHttpClient.jsonObject(answered.body());
        if (answered.status() != 200 || body == null) {
            return new Lookup.Unavailable("target_http_" + answered.status());
        }
        List<JsonObject> items = new ArrayList<>();
        if (settings.itemsPointer() == null) {
            items.add(body);
        } else if (pointer(body, settings.itemsPointer()) instanceof JsonArray array) {
            array.stream().filter(v -> v.getValueType() == JsonValue.ValueType.OBJECT).map(JsonValue::asJsonObject).forEach(items::add);
        } else {
            return new Lookup.Unavailable("unreadable_response");
        }
        if (items.isEmpty()) {
            return new Lookup.Absent();
        }
        if (items.size() > 1) {
            return new Lookup.Ambiguous(items.stream().map(i -> text(pointer(i, settings.lookupIdPointer()))).toList());
        }
        JsonObject item = items.get(0);
        String id = text(pointer(item, settings.lookupIdPointer()));
        String status = settings.lookupStatusPointer() == null ? null : text(pointer(item, settings.lookupStatusPointer()));
        String ours = settings.mapStatus(status);
        if (id == null || ours == null) {
            return new Lookup.Pending("the target's answer names no id or an unmapped status");
        }
        return switch (ours) {
            case "succeeded" -> new Lookup.Found(id, result(status));
            case "failed" -> new Lookup.Failed(id, "target_failed", "the target reports status " + status);
            default -> new Lookup.Pending("the target reports status " + status);
        };
    }

    private Outcome outcomeOf(Exchange exchange) {
        if (!(exchange instanceof Exchange.Answered answered)) {
            return Exchange.unanswered(exchange);
        }
        int status = answered.status();
        JsonObject body = TargetHttpClient.jsonObject(answered.body());
        if (settings.successStatuses().contains(status)) {
            String id = body == null ? null : text(pointer(body, settings.idPointer()));
            String targetStatus = body == null || settings.statusPointer() == null ? null : text(pointer(body, settings.statusPointer()));
            String ours = settings.mapStatus(targetStatus);
            if (id == null || ours == null) { // a yes we cannot read: the object may exist, look it up
                return new Outcome.Unknown("unreadable_response", status);
            }
            return switch (ours) {
                case "succeeded" -> new Outcome.Succeeded(id, result(targetStatus), status);
                case "failed" -> new Outcome.Rejected("target_failed", "the target reports status " + targetStatus, status);
                default -> new Outcome.Pending(id, null, status);
            };
        }
        String code = body == null || settings.errorCodePointer() == null ? null : text(pointer(body, settings.errorCodePointer()));
        Duration retryAfter = answered.retryAfter();
        if (retryAfter == null && body != null && settings.retryAfterPointer() != null
                && pointer(body, settings.retryAfterPointer()) instanceof JsonNumber seconds) {
            retryAfter = Duration.ofSeconds(seconds.longValue());
        }
        String errorCode = "target_http_" + status;
        return switch (settings.classification().of(status, code)) {
            case RETRY -> new Outcome.Transient(errorCode, retryAfter, status);
            case PENDING -> new Outcome.Pending(null, retryAfter, status);
            case UNKNOWN -> new Outcome.Unknown(errorCode, status);
            case FINAL -> new Outcome.Rejected(status == 401 || status == 403 ? "target_auth_failed" : "target_rejected",
                    "the target answered HTTP " + status + (code == null ? "" : " (" + code + ")"), status);
        };
    }

    private TargetRequest request(String method, String url, String body) {
        TargetRequest request = TargetRequest.of(method, URI.create(url), body);
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        switch (settings.auth()) {
            case "basic" -> request.header("Authorization", "Basic " + Base64.getEncoder()
                    .encodeToString((settings.user() + ":" + settings.password()).getBytes(StandardCharsets.UTF_8)));
            case "bearer" -> request.header("Authorization", "Bearer " + settings.token());
            case "header" -> request.header(settings.headerName(), settings.headerValue());
            default -> {
                // no credentials
            }
        }
        return request;
    }

    private static JsonObject result(String targetStatus) {
        return targetStatus == null ? JsonValue.EMPTY_JSON_OBJECT : JSON.createObjectBuilder().add("status", targetStatus).build();
    }

    private static JsonValue pointer(JsonStructure in, String pointer) {
        try {
            return JSON.createPointer(pointer).getValue(in);
        } catch (JsonException e) {
            return null;
        }
    }

    private static String text(JsonValue value) {
        if (value instanceof JsonString s) {
            return s.getString();
        }
        return value instanceof JsonNumber || value == JsonValue.TRUE || value == JsonValue.FALSE ? value.toString() : null;
    }

    @Override
    public void close() {
        http.close();
    }
}

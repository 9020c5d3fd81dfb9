package dev.toolgate.simulator;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

/** Drives the control API from a test: arm faults, count effects and calls, reset. */
public final class SimulatorClient {

    private final String baseUrl;
    private final HttpClient http = HttpClient.newHttpClient();

    public SimulatorClient(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    /** Arms {@code fault} for the next {@code times} requests to {@code system} containing {@code match}. */
    public void arm(String system, String match, String fault, int times) {
        arm(Json.createObjectBuilder().add("system", system).add("match", match).add("fault", fault).add("times", times));
    }

    /** The same, for requests with HTTP {@code method} only; {@code delayMs} for the {@code delay} fault. */
    public void arm(String system, String match, String method, String fault, int times, long delayMs) {
        arm(Json.createObjectBuilder().add("system", system).add("match", match).add("method", method).add("fault", fault)
                .add("times", times).add("delay_ms", delayMs));
    }

    public void armStatus(String system, String match, int status, int times) {
        arm(Json.createObjectBuilder().add("system", system).add("match", match).add("fault", "status")
                .add("status", status).add("times", times));
    }

    /** The same, for requests with HTTP {@code method} only (a write, not the look-up before it). */
    public void armStatus(String system, String match, String method, int status, int times) {
        arm(Json.createObjectBuilder().add("system", system).add("match", match).add("method", method).add("fault", "status")
                .add("status", status).add("times", times));
    }

    /** Does the work of the next request matching {@code match}, then answers {@code status} in place of its answer. */
    public void armStatusAfterCommit(String system, String match, int status) {
        arm(Json.createObjectBuilder().add("system", system).add("match", match).add("fault", "status_after_commit")
                .add("status", status).add("times", 1));
    }

    /** The same, for requests with HTTP {@code method} only. */
    public void armStatusAfterCommit(String system, String match, String method, int status) {
        arm(Json.createObjectBuilder().add("system", system).add("match", match).add("method", method).add("fault", "status_after_commit")
                .add("status", status).add("times", 1));
    }

    /** Answers {@code status} after {@code delayMs}, doing nothing: a slow refusal. */
    public void armSlowStatus(String system, String match, int status, long delayMs) {
        arm(Json.createObjectBuilder().add("system", system).add("match", match).add("method", "POST").add("fault", "status")
                .add("status", status).add("delay_ms", delayMs).add("times", 1));
    }

    public void armDelay(String system, String match, long delayMs) {
        arm(Json.createObjectBuilder().add("system", system).add("match", match).add("fault", "delay")
                .add("delay_ms", delayMs).add("times", 1));
    }

    /** The next create matching {@code match} is accepted as pending and succeeds {@code delayMs} later. */
    public void armPending(String system, String match, long delayMs) {
        arm(Json.createObjectBuilder().add("system", system).add("match", match).add("method", "POST")
                .add("fault", "pending_then_succeeded").add("delay_ms", delayMs).add("times", 1));
    }

    private void arm(JsonObjectBuilder spec) {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(baseUrl + "/_control/faults"))
                .POST(HttpRequest.BodyPublishers.ofString(spec.build().toString())).build());
        if (response.statusCode() != 201) {
            throw new IllegalStateException("simulator refused the fault: " + response.body());
        }
    }

    /** Ids of the business objects at {@code system} that carry {@code key}. */
    public List<String> effects(String system, String key) {
        return get("/_control/effects", system, key).getJsonArray("ids").getValuesAs(JsonString::getString);
    }

    /** How many create requests carrying {@code key} reached {@code system}. */
    public int creates(String system, String key) {
        return get("/_control/calls", system, key).getInt("creates");
    }

    public int lookups(String system, String key) {
        return get("/_control/calls", system, key).getInt("lookups");
    }

    /** Every create request carrying {@code key} that reached {@code system}, in order, with the fault each met. */
    public List<CreateRequest> createRequests(String system, String key) {
        return get("/_control/calls", system, key).getJsonArray("create_requests").getValuesAs(JsonObject.class).stream()
                .map(r -> new CreateRequest(r.getString("fault"), r.getBoolean("reached_work"), r.getBoolean("repeatable"))).toList();
    }

    /** Every use of an armed fault that {@code system} has taken, in order (each with {@code times} 1). */
    public List<ArmedFault> fired(String system) {
        return faults(system, "fired");
    }

    /** Armed uses {@code system} has not taken yet. */
    public List<ArmedFault> stillArmed(String system) {
        return faults(system, "armed");
    }

    private List<ArmedFault> faults(String system, String which) {
        String body = send(HttpRequest.newBuilder(URI.create(baseUrl + "/_control/fired?system=" + system)).GET().build()).body();
        return SimHttp.object(body).getJsonArray(which).getValuesAs(JsonObject.class).stream()
                .map(f -> new ArmedFault(system, f.getString("match"), f.getString("fault"), f.getInt("times"))).toList();
    }

    /** How often {@code object} of {@code system} was moved into the state {@code kind}, and found there already. */
    public StateCount stateChanges(String system, String object, String kind) {
        String query = "?system=" + system + "&object=" + URLEncoder.encode(object, StandardCharsets.UTF_8) + "&kind=" + kind;
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(baseUrl + "/_control/effects" + query)).GET().build());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("simulator refused the count: " + response.body());
        }
        JsonObject counts = SimHttp.object(response.body());
        return new StateCount(counts.getInt("count"), counts.getInt("repeated"));
    }

    /** Postings of the 1C document {@code ref}: of an unposted document ({@code count}), and re-posts ({@code repeated}). */
    public StateCount postings(String ref) {
        return stateChanges("1c", ref, "posting");
    }

    /** Writes of the status {@code Отменен} for the 1C document {@code ref}: the first ({@code count}), and rewrites. */
    public StateCount cancellations(String ref) {
        return stateChanges("1c", ref, "cancellation");
    }

    /** Moves of the Bitrix24 deal {@code dealId} into a lost stage, and updates to it that found it lost already. */
    public StateCount losses(String dealId) {
        return stateChanges("bitrix24", dealId, "lost");
    }

    /** Subscribes {@code url} to YooKassa's {@code event} through the real {@code POST /v3/webhooks}; the subscription's id. */
    public String subscribeYooKassa(String event, String url) {
        String credentials = Simulators.YOOKASSA_SHOP_ID + ":" + Simulators.YOOKASSA_SECRET_KEY;
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(Simulators.yooKassaUrl(baseUrl) + "webhooks"))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)))
                .header("Idempotence-Key", UUID.randomUUID().toString()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.createObjectBuilder().add("event", event).add("url", url).build()
                        .toString())).build());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("YooKassa refused the subscription: " + response.body());
        }
        return SimHttp.object(response.body()).getString("id");
    }

    /** Ends a YooKassa subscription through the real {@code DELETE /v3/webhooks/{id}}. */
    public void unsubscribeYooKassa(String id) {
        String credentials = Simulators.YOOKASSA_SHOP_ID + ":" + Simulators.YOOKASSA_SECRET_KEY;
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(Simulators.yooKassaUrl(baseUrl) + "webhooks/" + id))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)))
                .DELETE().build());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("YooKassa refused to end the subscription: " + response.body());
        }
    }

    /** Unbinds {@code handler} from Bitrix24's {@code event} through the real {@code event.unbind}. */
    public void unbindBitrix24(String event, String handler) {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(Simulators.bitrix24Url(baseUrl) + "event.unbind.json"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.createObjectBuilder().add("event", event).add("handler", handler).build()
                        .toString())).build());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("Bitrix24 refused the unbinding: " + response.body());
        }
    }

    /** Binds {@code handler} to Bitrix24's {@code event} through the real {@code event.bind} on the incoming webhook. */
    public void bindBitrix24(String event, String handler) {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(Simulators.bitrix24Url(baseUrl) + "event.bind.json"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.createObjectBuilder().add("event", event).add("handler", handler).build()
                        .toString())).build());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("Bitrix24 refused the binding: " + response.body());
        }
    }

    /**
     * Arms {@code fault} ({@code lose}, {@code duplicate}, {@code delay}, {@code reorder}, {@code foreign_source},
     * {@code early}) for the next {@code times} notifications of {@code system} whose event name or object id contains
     * {@code match}; {@code delayMs} for {@code delay} and {@code reorder}.
     */
    public void armNotification(String system, String match, String fault, int times, long delayMs) {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(baseUrl + "/_control/notification-faults"))
                .POST(HttpRequest.BodyPublishers.ofString(Json.createObjectBuilder().add("system", system).add("match", match)
                        .add("fault", fault).add("delay_ms", delayMs).add("times", times).build().toString())).build());
        if (response.statusCode() != 201) {
            throw new IllegalStateException("simulator refused the notification fault: " + response.body());
        }
    }

    /** Every notification {@code system} has sent or is sending, in order of the changes. */
    public List<SentNotification> notifications(String system) {
        String body = send(HttpRequest.newBuilder(URI.create(baseUrl + "/_control/notifications?system=" + system)).GET().build()).body();
        return SimHttp.object(body).getJsonArray("items").getValuesAs(JsonObject.class).stream()
                .map(n -> new SentNotification(n.getString("event"), n.getString("object_id"), n.getString("url"), n.getString("source"),
                        n.getInt("attempts"), n.getInt("delivered_status"), n.getString("fault"), n.getString("state"),
                        n.getString("first_sent_at", null), n.getString("delivered_at", null))).toList();
    }

    /** {@link #notifications} once none of them is pending any more (retries and held ones included). */
    public List<SentNotification> settledNotifications(String system, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<SentNotification> all = notifications(system);
            if (all.stream().noneMatch(n -> "pending".equals(n.state()))) {
                return all;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(system + " notifications still pending after " + timeout + ": " + all);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    public void reset() {
        send(HttpRequest.newBuilder(URI.create(baseUrl + "/_control/reset")).POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    private JsonObject get(String path, String system, String key) {
        String query = "?system=" + system + "&key=" + URLEncoder.encode(key, StandardCharsets.UTF_8);
        String body = send(HttpRequest.newBuilder(URI.create(baseUrl + path + query)).GET().build()).body();
        return SimHttp.object(body);
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * One create request as the system received it: the fault it met ({@code none}), whether the system's own work
     * saw it (a reset before commit or an armed status did not), and whether the system deduplicates it by design.
     */
    public record CreateRequest(String fault, boolean reachedWork, boolean repeatable) {
    }

    /** A fault of {@code system} for requests containing {@code match}: armed, or one use of it taken. */
    public record ArmedFault(String system, String match, String fault, int times) {
    }

    /**
     * One notification of one change to one URL: {@code attempts} POSTs, the last answer's status ({@code 0}: none),
     * the fault it met ({@code none}), and its {@code state}: {@code delivered}, {@code failed} (given up), {@code lost},
     * {@code pending}. Times are ISO-8601, null until they happen.
     */
    public record SentNotification(String event, String objectId, String url, String source, int attempts, int deliveredStatus,
                                   String fault, String state, String firstSentAt, String deliveredAt) {
    }

    /** One object's state changes: {@code count} moves into the state, {@code repeated} requests that found it there. */
    public record StateCount(int count, int repeated) {
    }
}

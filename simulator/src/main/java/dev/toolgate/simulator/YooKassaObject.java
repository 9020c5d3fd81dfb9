package dev.toolgate.simulator;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.function.BiConsumer;

/**
 * A payment or refund as the provider keeps it. A pending one becomes succeeded at its due time, once:
 * on the first read at or after that time, or when the simulator's clock reaches it, whichever comes
 * first, and that change is reported to {@code onSucceeded}. Guarded by {@link YooKassaApi}'s lock.
 */
final class YooKassaObject {

    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    private final long sequence;
    private final String successEvent;
    private final BiConsumer<String, JsonObject> onSucceeded;
    private JsonObject object;
    private Instant succeedAt;

    /** {@code successEvent}: {@code payment.succeeded} or {@code refund.succeeded}. */
    YooKassaObject(JsonObject object, long sequence, String successEvent, BiConsumer<String, JsonObject> onSucceeded) {
        this.object = object;
        this.sequence = sequence;
        this.successEvent = successEvent;
        this.onSucceeded = onSucceeded;
    }

    long sequence() {
        return sequence;
    }

    String id() {
        return object.getString("id");
    }

    String successEvent() {
        return successEvent;
    }

    void succeedAt(Instant at) {
        succeedAt = at;
    }

    void replace(JsonObject changed) {
        object = changed;
    }

    JsonObject now() {
        if (succeedAt != null && !Instant.now().isBefore(succeedAt)) {
            settle();
        }
        return object;
    }

    /** Makes a pending object succeeded now (the clock's task may run a hair before the wall clock agrees). */
    void settle() {
        if (succeedAt != null) {
            object = succeeded(succeedAt);
            succeedAt = null;
            onSucceeded.accept(successEvent, object);
        }
    }

    /** The object as it reads once succeeded at {@code at}. */
    JsonObject succeeded(Instant at) {
        JsonObjectBuilder done = Json.createObjectBuilder(object).add("status", "succeeded");
        if (object.containsKey("paid")) {
            done.add("paid", true).add("refundable", true).add("captured_at", timestamp(at));
        }
        return done.build();
    }

    static String timestamp(Instant at) {
        return TIMESTAMP.format(at);
    }
}

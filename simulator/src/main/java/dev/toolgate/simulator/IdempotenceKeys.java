package dev.toolgate.simulator;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * YooKassa's idempotency layer: the first answer to an {@code Idempotence-Key} is kept for 24 hours and given
 * again to the same request; a different request under the key is refused. A 202 means "not processed yet": it
 * is not kept, so the repeat does the work. Faults armed as a status run before this layer (rate limits and
 * gateway errors do), so they are never kept either. Guarded by its owner's lock, which also covers the work.
 */
final class IdempotenceKeys {

    private static final Duration KEY_WINDOW = Duration.ofHours(24);

    private record Remembered(String request, OneCOData.Reply reply, Instant at) {
    }

    private final Map<String, Remembered> keys = new HashMap<>();

    /** The answer to {@code request} under {@code key}: the one kept, or {@code work}'s. */
    OneCOData.Reply answer(String key, String request, Supplier<OneCOData.Reply> work) {
        Instant now = Instant.now();
        Remembered earlier = keys.get(key);
        if (earlier != null && earlier.at().plus(KEY_WINDOW).isAfter(now)) {
            if (!earlier.request().equals(request)) {
                return new OneCOData.Reply(400, YooKassaErrors.error("invalid_request",
                        "Idempotence key duplicated: the same key was used with other request parameters", "Idempotence-Key"));
            }
            return earlier.reply();
        }
        OneCOData.Reply reply = work.get();
        if (reply.status() != 202) {
            keys.put(key, new Remembered(request, reply, now));
        }
        return reply;
    }

    void clear() {
        keys.clear();
    }
}

package dev.toolgate.notification;

import java.time.Instant;
import java.util.UUID;

/**
 * A target's notification as its door checked it: every field a checked identifier, none taken on trust;
 * {@code keyHint} is where to look first, the look-up by key is what settles.
 *
 * @param keyHint the downstream key the notification says the object carries, or null
 * @param tenant  the tenant the door's path names, or null: then the key says whose it is
 * @param receipt our id of this delivery: in the log line, the journal event and the span
 */
public record Notice(String target, String event, String objectKind, String objectId, String keyHint, String tenant,
                     Instant receivedAt, String receipt) {

    public static Notice received(String target, String event, String objectKind, String objectId, String keyHint, String tenant) {
        return new Notice(target, event, objectKind, objectId, keyHint, tenant, Instant.now(), "n-" + UUID.randomUUID());
    }

    public String describe() {
        return target + " " + event + " for " + objectKind + " " + objectId + " (receipt " + receipt + ", received "
                + receivedAt + "); looked up by key before anything is written";
    }
}

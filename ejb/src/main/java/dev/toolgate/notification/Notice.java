package dev.toolgate.notification;

import java.time.Instant;
import java.util.UUID;

/**
 * A target's notification as its door read and checked it. Every field is a checked identifier, none a value the
 * journal takes on trust: {@code keyHint} is where to look first, the look-up by key is what settles.
 *
 * @param target     the target that sent it ({@code yookassa}, {@code bitrix24})
 * @param event      the target's event name, e.g. {@code payment.succeeded}, {@code ONCRMDEALADD}
 * @param objectKind what the object is at the target ({@code payment}, {@code refund}, {@code deal})
 * @param objectId   the target's id of the object
 * @param keyHint    the downstream key the notification says the object carries, or null
 * @param tenant     the tenant the door's path names, or null: then the key says whose it is
 * @param receipt    our id of this delivery: in the log line, the journal event and the span
 */
public record Notice(String target, String event, String objectKind, String objectId, String keyHint, String tenant,
                     Instant receivedAt, String receipt) {

    public static Notice received(String target, String event, String objectKind, String objectId, String keyHint, String tenant) {
        return new Notice(target, event, objectKind, objectId, keyHint, tenant, Instant.now(), "n-" + UUID.randomUUID());
    }

    /** What the journal's {@code notified} event says. */
    public String describe() {
        return target + " " + event + " for " + objectKind + " " + objectId + " (receipt " + receipt + ", received "
                + receivedAt + "); looked up by key before anything is written";
    }
}

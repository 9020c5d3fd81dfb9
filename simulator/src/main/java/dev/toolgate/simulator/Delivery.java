package dev.toolgate.simulator;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import java.net.InetAddress;
import java.time.Instant;
import java.util.Locale;

/** One notification of one change to one URL: what was sent, how often, and how it ended. */
final class Delivery {

    enum State { PENDING, DELIVERED, FAILED, LOST }

    private final Notifications.Change change;
    private final Notifications.Message message;
    private final NotificationFaults.Fault fault; // null: none
    private int attempts;
    private int lastStatus; // 0: no answer (not sent yet, or the connection failed)
    private State state = State.PENDING;
    private Instant firstSentAt;
    private Instant deliveredAt;
    private boolean cancelled;

    Delivery(Notifications.Change change, Notifications.Message message, NotificationFaults.Fault fault) {
        this.change = change;
        this.message = message;
        this.fault = fault;
    }

    Notifications.Change change() {
        return change;
    }

    Notifications.Message message() {
        return message;
    }

    boolean is(NotificationFaults.Kind kind) {
        return fault != null && fault.kind() == kind;
    }

    long faultDelayMs(long fallback) {
        return fault != null && fault.delayMs() > 0 ? fault.delayMs() : fallback;
    }

    InetAddress source() {
        return is(NotificationFaults.Kind.FOREIGN_SOURCE) ? Notifications.FOREIGN_SOURCE : Notifications.OWN_SOURCE;
    }

    /** One POST begun at {@code at}, answered with {@code status} (0: no answer). */
    synchronized void sent(int status, Instant at) {
        attempts++;
        lastStatus = status;
        if (firstSentAt == null) {
            firstSentAt = at;
        }
    }

    synchronized void delivered(Instant at) {
        state = State.DELIVERED;
        deliveredAt = at;
    }

    synchronized void failed() {
        state = State.FAILED;
    }

    synchronized void lost() {
        state = State.LOST;
    }

    synchronized boolean pending() {
        return state == State.PENDING;
    }

    /** After a reset: whatever is still due for it is dropped. */
    synchronized void cancel() {
        cancelled = true;
    }

    synchronized boolean cancelled() {
        return cancelled;
    }

    synchronized JsonObject json() {
        JsonObjectBuilder json = Json.createObjectBuilder()
                .add("event", change.event()).add("object_id", change.objectId()).add("url", message.url())
                .add("source", source().getHostAddress()).add("attempts", attempts).add("delivered_status", lastStatus)
                .add("fault", fault == null ? "none" : fault.kind().name().toLowerCase(Locale.ROOT))
                .add("state", state.name().toLowerCase(Locale.ROOT));
        addTime(json, "first_sent_at", firstSentAt);
        addTime(json, "delivered_at", deliveredAt);
        return json.build();
    }

    private static void addTime(JsonObjectBuilder json, String name, Instant at) {
        if (at == null) {
            json.addNull(name);
        } else {
            json.add(name, at.toString());
        }
    }
}

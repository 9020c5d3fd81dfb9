package dev.toolgate.simulator;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The notifications the simulated systems send about their changes, with the faults armed on them. A change
 * made while a request is answered is sent once the answer has gone ({@link #answering}), as a provider's
 * queue does; each notification goes on a thread of its own, retried on the system's schedule until a 200.
 * Every notification is kept, in order of the changes, for the control API.
 */
final class Notifications implements AutoCloseable {

    /** Where the simulated systems send from; the gateway's allow-list names it. */
    static final InetAddress OWN_SOURCE = loopback(1);
    /** Another loopback address: Linux routes all of 127/8 to lo, so this is a real second source. */
    static final InetAddress FOREIGN_SOURCE = loopback(2);
    private static final long REORDER_FALLBACK_MS = 2_000; // a held notification still goes if no other comes
    private static final ThreadLocal<List<Delivery>> ANSWERING = new ThreadLocal<>();

    /** What one URL is sent. */
    record Message(String url, String contentType, String body) {
    }

    /** One change of one object: the event it fires, and the system's retry intervals after a failed send. */
    record Change(String system, String event, String objectId, List<Long> retryMs) {
    }

    /** A system's answer to one request. */
    interface Answer {
        void run() throws IOException;
    }

    private final ScheduledExecutorService clock;
    private final ExecutorService senders = Executors.newCachedThreadPool(daemon("simulator-notification"));
    private final NotificationSender sender = new NotificationSender();
    private final NotificationFaults faults = new NotificationFaults();
    private final List<Delivery> deliveries = new ArrayList<>();
    private final Map<String, List<Delivery>> held = new HashMap<>(); // by system: reordered, waiting for the next one

    Notifications(ScheduledExecutorService clock) {
        this.clock = clock;
    }

    void arm(NotificationFaults.Fault fault) {
        faults.arm(fault);
    }

    /** Notifies {@code change} with each message, each taking one use of a matching armed fault. */
    void changed(Change change, List<Message> messages) {
        for (Message message : messages) {
            queue(new Delivery(change, message, faults.take(change.system(), change.event(), change.objectId(),
                    NotificationFaults.PER_MESSAGE)));
        }
    }

    /** Notifies {@code change} ahead of time if an {@code early} fault matches it; whether it did. */
    boolean early(Change change, List<Message> messages) {
        NotificationFaults.Fault fault = faults.take(change.system(), change.event(), change.objectId(),
                Set.of(NotificationFaults.Kind.EARLY));
        if (fault != null) {
            messages.forEach(message -> queue(new Delivery(change, message, fault)));
        }
        return fault != null;
    }

    /** Runs {@code answer}; the notifications of the changes it made are sent after it, even if it dropped the connection. */
    void answering(Answer answer) throws IOException {
        List<Delivery> outbox = new ArrayList<>();
        ANSWERING.set(outbox);
        try {
            answer.run();
        } finally {
            ANSWERING.remove();
            outbox.forEach(this::dispatch);
        }
    }

    private void queue(Delivery delivery) {
        synchronized (this) {
            deliveries.add(delivery);
        }
        List<Delivery> outbox = ANSWERING.get();
        if (outbox != null) {
            outbox.add(delivery);
        } else {
            dispatch(delivery);
        }
    }

    private void dispatch(Delivery delivery) {
        if (delivery.is(NotificationFaults.Kind.LOSE)) {
            delivery.lost();
        } else if (delivery.is(NotificationFaults.Kind.DELAY)) {
            later(() -> attempt(delivery, 0), delivery.faultDelayMs(0));
        } else if (delivery.is(NotificationFaults.Kind.REORDER)) {
            synchronized (this) {
                held.computeIfAbsent(delivery.change().system(), s -> new ArrayList<>()).add(delivery);
            }
            later(() -> {
                if (unhold(delivery)) {
                    attempt(delivery, 0);
                }
            }, delivery.faultDelayMs(REORDER_FALLBACK_MS));
        } else {
            execute(() -> attempt(delivery, 0));
        }
    }

    /** One send; on a failure the next is scheduled, until the system's intervals run out. */
    private void attempt(Delivery delivery, int retriesDone) {
        if (delivery.cancelled()) {
            return;
        }
        List<Long> retries = delivery.change().retryMs();
        if (send(delivery) == 200) {
            if (delivery.is(NotificationFaults.Kind.DUPLICATE)) { // before it counts as delivered: no longer pending means both went
                send(delivery);
            }
            delivery.delivered(Instant.now());
        } else if (retriesDone < retries.size()) {
            later(() -> attempt(delivery, retriesDone + 1), retries.get(retriesDone));
        } else {
            delivery.failed();
        }
        if (retriesDone == 0 && !delivery.is(NotificationFaults.Kind.REORDER)) {
            releaseHeld(delivery.change().system());
        }
    }

    private int send(Delivery delivery) {
        Instant at = Instant.now();
        Message message = delivery.message();
        int status;
        try {
            status = sender.post(URI.create(message.url()), delivery.source(), message.contentType(),
                    message.body().getBytes(StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException unreachable) {
            status = 0;
        }
        delivery.sent(status, at);
        return status;
    }

    private void releaseHeld(String system) {
        List<Delivery> released;
        synchronized (this) {
            released = held.remove(system);
        }
        if (released != null) {
            released.forEach(h -> execute(() -> attempt(h, 0)));
        }
    }

    private synchronized boolean unhold(Delivery delivery) {
        List<Delivery> waiting = held.get(delivery.change().system());
        return waiting != null && waiting.remove(delivery);
    }

    /** {@code system}'s notifications in order of the changes, as {@code GET /_control/notifications} lists them. */
    synchronized JsonArray list(String system) {
        JsonArrayBuilder items = Json.createArrayBuilder();
        deliveries.stream().filter(d -> d.change().system().equals(system)).forEach(d -> items.add(d.json()));
        return items.build();
    }

    synchronized void reset() {
        deliveries.forEach(Delivery::cancel);
        deliveries.clear();
        held.clear();
        faults.clear();
    }

    private void later(Runnable send, long delayMs) {
        try {
            clock.schedule(() -> execute(send), delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            // the simulators are stopping: nothing more is sent
        }
    }

    private void execute(Runnable send) {
        try {
            senders.execute(send);
        } catch (RejectedExecutionException closed) {
            // the simulators are stopping: nothing more is sent
        }
    }

    @Override
    public void close() {
        senders.shutdownNow();
    }

    static ThreadFactory daemon(String name) {
        return task -> {
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    private static InetAddress loopback(int last) {
        try {
            return InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) last});
        } catch (UnknownHostException impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}

package dev.toolgate.simulator;

import com.sun.net.httpserver.HttpExchange;
import jakarta.json.Json;
import jakarta.json.JsonObject;

import java.io.IOException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/** Applies an armed fault around a system's own handling of one request. */
final class FaultRunner {

    /** Every system's id and list fields, each with a type its contract never uses. */
    private static final JsonObject WRONG_SHAPE_BODY = Json.createObjectBuilder()
            .add("value", Json.createArrayBuilder().add(Json.createObjectBuilder().add("Ref_Key", 42).add("Number", 42)))
            .add("result", Json.createArrayBuilder().add(Json.createObjectBuilder().add("ID", 42)))
            .add("items", Json.createArrayBuilder().add(Json.createObjectBuilder().add("id", 42).add("status", 42)))
            .add("id", 42).add("status", 42).build();

    private FaultRunner() {
    }

    /** Runs {@code work} unless the fault replaces it; a delay runs first, then the work. */
    static <R> R before(Fault fault, Supplier<R> work, IntFunction<R> statusReply) {
        if (fault != null) {
            switch (fault.kind()) {
                case RESET_BEFORE_COMMIT -> throw new ConnectionDropped();
                case STATUS -> { // with delay_ms: a slow refusal, e.g. an attempt that outlives its lease
                    sleep(fault.delayMs());
                    return statusReply.apply(fault.status());
                }
                case DELAY -> sleep(fault.delayMs());
                default -> {
                    // the other kinds act on the work itself or after it
                }
            }
        }
        return work.get();
    }

    /**
     * Answers one request of {@code system}: takes the first armed fault matching {@code request},
     * runs the system's {@code work} around it, and sends what comes out (or drops the connection).
     */
    static void answer(HttpExchange exchange, Faults faults, String system, String request,
                       Function<Fault, OneCOData.Reply> work, IntFunction<OneCOData.Reply> statusReply) throws IOException {
        answer(exchange, faults, system, request, fault -> { }, work, statusReply);
    }

    /** The same, telling {@code arrived} which fault (or null) this request met before anything is done with it. */
    static void answer(HttpExchange exchange, Faults faults, String system, String request, Consumer<Fault> arrived,
                       Function<Fault, OneCOData.Reply> work, IntFunction<OneCOData.Reply> statusReply) throws IOException {
        Fault fault = faults.take(system, exchange.getRequestMethod(), request);
        arrived.accept(fault);
        if (fault != null && fault.kind() == Fault.Kind.WRONG_SHAPE) {
            SimHttp.send(exchange, 200, WRONG_SHAPE_BODY);
            return;
        }
        OneCOData.Reply reply = after(fault, before(fault, () -> work.apply(fault), statusReply), statusReply);
        SimHttp.send(exchange, reply.status(), reply.body());
    }

    /**
     * After the work committed: drops the connection, or answers the fault's status in place of the work's
     * answer, when the fault says so; otherwise the work's own {@code reply}.
     */
    static OneCOData.Reply after(Fault fault, OneCOData.Reply reply, IntFunction<OneCOData.Reply> statusReply) {
        if (fault != null && fault.kind() == Fault.Kind.DROP_RESPONSE_AFTER_COMMIT) {
            throw new ConnectionDropped();
        }
        if (fault != null && fault.kind() == Fault.Kind.STATUS_AFTER_COMMIT) {
            return statusReply.apply(fault.status());
        }
        return reply;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

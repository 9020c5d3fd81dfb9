package dev.toolgate.simulator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The control API shared by all simulated systems (docs/targets.md): {@code POST /_control/faults},
 * {@code GET /_control/effects} (by key, or by object and kind of state change), {@code GET /_control/calls} (with each create's fault),
 * {@code GET /_control/fired} (the faults taken and those still armed),
 * {@code POST /_control/notification-faults}, {@code GET /_control/notifications} (what the systems sent),
 * {@code POST /_control/reset}.
 */
final class Control implements HttpHandler {

    private final Faults faults;
    private final Notifications notifications;
    private final Map<String, SimulatedSystem> systems;

    Control(Faults faults, Notifications notifications, List<SimulatedSystem> systems) {
        this.faults = faults;
        this.notifications = notifications;
        this.systems = systems.stream().collect(Collectors.toUnmodifiableMap(SimulatedSystem::name, s -> s));
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String method = exchange.getRequestMethod();
        Map<String, String> query = SimHttp.query(exchange);
        if ("POST".equals(method) && path.equals("/_control/faults")) {
            arm(exchange);
        } else if ("POST".equals(method) && path.equals("/_control/notification-faults")) {
            armNotification(exchange);
        } else if ("GET".equals(method) && path.equals("/_control/notifications") && known(query)) {
            SimHttp.send(exchange, 200, Json.createObjectBuilder().add("items", notifications.list(query.get("system"))).build());
        } else if ("POST".equals(method) && path.equals("/_control/reset")) {
            faults.clear();
            notifications.reset();
            systems.values().forEach(SimulatedSystem::reset);
            SimHttp.send(exchange, 204, "", "text/plain");
        } else if ("GET".equals(method) && path.equals("/_control/effects") && known(query) && query.containsKey("object")) {
            stateChanges(exchange, systems.get(query.get("system")), query.get("object"), query.getOrDefault("kind", ""));
        } else if ("GET".equals(method) && path.equals("/_control/effects") && known(query)) {
            List<String> ids = systems.get(query.get("system")).effects(query.getOrDefault("key", ""));
            JsonArrayBuilder array = Json.createArrayBuilder();
            ids.forEach(array::add);
            SimHttp.send(exchange, 200, Json.createObjectBuilder().add("count", ids.size()).add("ids", array).build());
        } else if ("GET".equals(method) && path.equals("/_control/calls") && known(query)) {
            SimulatedSystem system = systems.get(query.get("system"));
            String key = query.getOrDefault("key", "");
            int[] calls = system.calls(key);
            JsonArrayBuilder requests = Json.createArrayBuilder();
            system.creates(key).forEach(c -> requests.add(Json.createObjectBuilder().add("fault", name(c.fault()))
                    .add("reached_work", c.reachedWork()).add("repeatable", c.repeatable())));
            SimHttp.send(exchange, 200, Json.createObjectBuilder().add("creates", calls[0]).add("lookups", calls[1])
                    .add("create_requests", requests).build());
        } else if ("GET".equals(method) && path.equals("/_control/fired") && known(query)) {
            String system = query.get("system");
            SimHttp.send(exchange, 200, Json.createObjectBuilder().add("fired", faults(faults.fired(system)))
                    .add("armed", faults(faults.armed(system))).build());
        } else {
            SimHttp.send(exchange, 404, problem("no such control call, or unknown system"));
        }
    }

    /**
     * {@code ?system=…&object=<id>&kind=…}: how often one existing object was moved into a state ({@code count})
     * and how often a request found it there already ({@code repeated}).
     */
    private static void stateChanges(HttpExchange exchange, SimulatedSystem system, String object, String kind) throws IOException {
        if (!system.stateKinds().contains(kind)) {
            SimHttp.send(exchange, 400, problem("kind must be one of " + new TreeSet<>(system.stateKinds())
                    + " for system " + system.name()));
            return;
        }
        int[] counts = system.stateChanges(kind, object);
        SimHttp.send(exchange, 200, Json.createObjectBuilder().add("system", system.name()).add("object", object)
                .add("kind", kind).add("count", counts[0]).add("repeated", counts[1]).build());
    }

    private void arm(HttpExchange exchange) throws IOException {
        JsonObject spec = SimHttp.object(SimHttp.body(exchange));
        try {
            Fault fault = new Fault(spec.getString("system"), spec.getString("match"), spec.getString("method", null),
                    Fault.Kind.valueOf(spec.getString("fault").toUpperCase(Locale.ROOT)),
                    spec.getInt("status", 500), spec.getJsonNumber("delay_ms") == null ? 0 : spec.getJsonNumber("delay_ms").longValue(),
                    spec.getInt("times", 1));
            SimulatedSystem system = systems.get(fault.system());
            if (system == null || !system.supports(fault.kind())) {
                SimHttp.send(exchange, 400, problem("the system does not support that fault"));
                return;
            }
            faults.arm(fault);
            SimHttp.send(exchange, 201, spec);
        } catch (NullPointerException | ClassCastException | IllegalArgumentException e) {
            SimHttp.send(exchange, 400, problem("a fault is {system, match, fault, status?, delay_ms?, times?, method?}"));
        }
    }

    private void armNotification(HttpExchange exchange) throws IOException {
        JsonObject spec = SimHttp.object(SimHttp.body(exchange));
        try {
            NotificationFaults.Fault fault = new NotificationFaults.Fault(spec.getString("system"), spec.getString("match"),
                    NotificationFaults.Kind.valueOf(spec.getString("fault").toUpperCase(Locale.ROOT)),
                    spec.getJsonNumber("delay_ms") == null ? 0 : spec.getJsonNumber("delay_ms").longValue(), spec.getInt("times", 1));
            SimulatedSystem system = systems.get(fault.system());
            if (system == null || !system.supports(fault.kind())) {
                SimHttp.send(exchange, 400, problem("the system sends no notifications, or not with that fault"));
                return;
            }
            notifications.arm(fault);
            SimHttp.send(exchange, 201, spec);
        } catch (NullPointerException | ClassCastException | IllegalArgumentException e) {
            SimHttp.send(exchange, 400, problem("a notification fault is {system, match, fault, delay_ms?, times?}"));
        }
    }

    /** Faults as {@code [{"match", "fault", "times"}]}, in order. */
    private static JsonArrayBuilder faults(List<Fault> list) {
        JsonArrayBuilder array = Json.createArrayBuilder();
        list.forEach(f -> array.add(Json.createObjectBuilder().add("match", f.match()).add("fault", name(f.kind())).add("times", f.times())));
        return array;
    }

    private static String name(Fault.Kind kind) {
        return kind == null ? "none" : kind.name().toLowerCase(Locale.ROOT);
    }

    private boolean known(Map<String, String> query) {
        return systems.containsKey(query.get("system"));
    }

    private static JsonObject problem(String detail) {
        return Json.createObjectBuilder().add("title", "Bad control request").add("detail", detail).build();
    }
}

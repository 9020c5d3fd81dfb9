package dev.toolgate.it.support;

import dev.toolgate.checker.Checker;
import dev.toolgate.checker.History;
import dev.toolgate.checker.Verdict;
import dev.toolgate.simulator.SimulatorClient;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Records one fault run for the {@link Checker}: each key's target and fault plan as the suite declares and arms it,
 * every answer an agent got (a call that ended without one included), and the windows in which the suite took the
 * journal or a gateway away. {@link #judge} then reads the rest from outside the gateway — the journal by SQL, and
 * what each simulator received, holds and fired — and returns the verdict.
 */
public final class RunHistory {

    private final SimulatorClient targets;
    private final Map<String, Planned> plan = new ConcurrentHashMap<>();
    private final Map<String, List<History.Answer>> answers = new ConcurrentHashMap<>();
    private final List<History.Outage> outages = new CopyOnWriteArrayList<>();
    private final List<History.Answer> others = new CopyOnWriteArrayList<>();

    public RunHistory(SimulatorClient targets) {
        this.targets = targets;
    }

    /** Declares {@code key}, sent to {@code system}; {@code mayEscalate}: its fault plan can leave it for a person. */
    public void plan(String key, String system, boolean mayEscalate) {
        plan.put(key, new Planned(system, mayEscalate, new CopyOnWriteArrayList<>(), true));
    }

    /**
     * Arms {@code fault} ({@code status}, {@code delay}, … as the simulators name them) for {@code key}'s requests and
     * records it; {@code arming} does the arming with the match it is given (the key as the target sees it).
     */
    public void arm(String key, String fault, int times, java.util.function.Consumer<String> arming) {
        arming.accept(Agent.downstream(key));
        plan.get(key).armed().add(new Armed(fault, times));
    }

    /**
     * {@code key} was never to be sent after all (its process ended before the step): its armed faults need not
     * fire, and the checker holds that nothing of it was journaled or reached its target.
     */
    public void neverSent(String key) {
        plan.computeIfPresent(key, (k, p) -> new Planned(p.system(), p.mayEscalate(), p.armed(), false));
    }

    /** Calls {@code call} and records what the agent got: the answer, or none when the call ended without one. */
    public Agent.Answer call(String key, java.util.function.Supplier<Agent.Answer> call) {
        try {
            Agent.Answer answer = call.get();
            answers.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>()).add(read(answer));
            return answer;
        } catch (UncheckedIOException | IllegalStateException e) {
            answers.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>())
                    .add(new History.Answer(History.Answer.NO_ANSWER, null, null, null, false, Instant.now()));
            return null;
        }
    }

    /** Calls {@code call}, a call on no single operation (a process), and records its answer. */
    public Agent.Answer callOther(java.util.function.Supplier<Agent.Answer> call) {
        try {
            Agent.Answer answer = call.get();
            others.add(read(answer));
            return answer;
        } catch (UncheckedIOException | IllegalStateException e) {
            others.add(new History.Answer(History.Answer.NO_ANSWER, null, null, null, false, Instant.now()));
            return null;
        }
    }

    /** The suite took {@code what} away from {@code from} to {@code to}. */
    public void outage(History.Away what, Instant from, Instant to) {
        outages.add(new History.Outage(what, from, to));
    }

    public int answers() {
        return answers.values().stream().mapToInt(List::size).sum();
    }

    /** Every answer the agents got so far, counted by status and problem type ({@code -1}: none). */
    public Map<String, Integer> byStatus() {
        Map<String, Integer> counts = new java.util.TreeMap<>();
        answers.values().forEach(list -> list.forEach(a -> counts.merge(a.httpStatus() + (a.problem() == null ? "" : " " + a.problem()),
                1, Integer::sum)));
        return counts;
    }

    /** The answers to calls on no single operation (processes), counted as {@link #byStatus} counts. */
    public Map<String, Integer> othersByStatus() {
        Map<String, Integer> counts = new java.util.TreeMap<>();
        others.forEach(a -> counts.merge(a.httpStatus() + (a.problem() == null ? "" : " " + a.problem()), 1, Integer::sum));
        return counts;
    }

    /** Reads the journal through {@code journal} and the simulators, and judges. */
    public Verdict judge(ConnectionSource journal) throws SQLException {
        java.util.Set<String> unplanned = new java.util.TreeSet<>(answers.keySet());
        unplanned.removeAll(plan.keySet());
        if (!unplanned.isEmpty()) { // an answer nobody judges could hide anything: the suite must plan every key it sends
            throw new IllegalStateException("answers for keys the suite never planned: " + unplanned);
        }
        Map<String, History.Row> rows = rows(journal);
        Map<String, Map<String, Integer>> fired = new HashMap<>(); // system → "match fault" → uses taken
        List<History.Operation> operations = new ArrayList<>();
        plan.forEach((key, planned) -> {
            String downstream = Agent.downstream(key);
            Map<String, Integer> taken = fired.computeIfAbsent(planned.system(), this::fired);
            Map<String, Integer> times = new java.util.TreeMap<>(); // two faults of one kind on one key: both must fire
            planned.armed().forEach(a -> times.merge(a.fault(), a.times(), Integer::sum));
            List<History.Armed> armed = times.entrySet().stream().map(t -> new History.Armed(t.getKey(), t.getValue(),
                    taken.getOrDefault(downstream + " " + t.getKey(), 0))).toList();
            List<History.Create> creates = targets.createRequests(planned.system(), downstream).stream()
                    .map(c -> new History.Create(c.fault(), c.reachedWork(), c.repeatable())).toList();
            operations.add(new History.Operation(key, planned.system(), answers.getOrDefault(key, List.of()), rows.get(key),
                    targets.effects(planned.system(), downstream), creates, armed, planned.mayEscalate(), planned.sent()));
        });
        return Checker.judge(new History(operations, outages, others));
    }

    private Map<String, Integer> fired(String system) {
        Map<String, Integer> counts = new HashMap<>();
        targets.fired(system).forEach(f -> counts.merge(f.match() + " " + f.fault(), 1, Integer::sum));
        return counts;
    }

    private Map<String, History.Row> rows(ConnectionSource journal) throws SQLException {
        Map<String, History.Row> rows = new HashMap<>();
        try (Connection c = journal.open(); PreparedStatement q = c.prepareStatement("SELECT operation_key, status, target_object_id,"
                + " escalated_at IS NOT NULL, error_code FROM agent_operation_log WHERE operation_key = ANY (?)")) {
            q.setArray(1, c.createArrayOf("text", plan.keySet().toArray()));
            try (ResultSet r = q.executeQuery()) {
                while (r.next()) {
                    rows.put(r.getString(1), new History.Row(r.getString(2), r.getString(3), r.getBoolean(4), r.getString(5)));
                }
            }
        }
        return rows;
    }

    private static History.Answer read(Agent.Answer answer) {
        boolean retryAfter = answer.header("Retry-After") != null;
        JsonObject operation = null;
        String problem = null;
        try {
            JsonObject json = answer.json();
            problem = json.containsKey("type") ? answer.problem() : null;
            operation = json.containsKey("type") ? (json.get("operation") instanceof JsonObject o ? o : null) : json;
        } catch (RuntimeException notJson) {
            // a body that is not JSON (an error page) still counts by its status
        }
        String status = operation != null && operation.get("status") instanceof JsonString s ? s.getString() : null;
        String object = operation != null && operation.get("target_object_id") instanceof JsonString o ? o.getString() : null;
        // an error page's text without its markup, for a report that says what the server said
        String body = answer.body() == null ? "" : answer.body().replaceAll("<head>.*</head>|<[^>]*>", " ").replaceAll("\\s+", " ").trim();
        String excerpt = answer.status() / 100 == 2 ? null : body.substring(0, Math.min(240, body.length()));
        return new History.Answer(answer.status(), status, object, problem, retryAfter, Instant.now(), excerpt);
    }

    /** Where the journal is read: a suite's own database, a pooler's address, the cluster's primary. */
    @FunctionalInterface
    public interface ConnectionSource {
        Connection open() throws SQLException;
    }

    private record Planned(String system, boolean mayEscalate, List<Armed> armed, boolean sent) {
    }

    private record Armed(String fault, int times) {
    }
}

package dev.toolgate.benchmark;

import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.launcher.LocalStack;

import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The series, in the order that keeps each from disturbing the next: warm-up; closed loop at c = 1, 8, 32
 * for the gateway and every floor; open loop at fixed arrival rates; the reconciliation backlog on one
 * instance and then two; last the journal grown to each size (it is emptied first, and what is filled
 * stays). Every cell is repeated and metered (CPU per process, statements and commits per operation).
 */
final class Measurements {

    static final List<Integer> CONCURRENCY = List.of(1, 8, 32);
    static final String DIRECT = "direct to 1C";
    static final String PING = "floor: no database";
    static final String READ = "floor: one PK read";
    static final String NEW = "gateway: new";
    static final String REPLAY = "gateway: replay";
    /**
     * Replays of the newest keys, as an agent retries a call whose answer it lost: within seconds to minutes of the
     * first. {@link #REPLAY} spreads over more finished keys than an instance holds in memory ({@link ReplayPool}).
     */
    static final String REPLAY_RECENT = "gateway: replay, recent";
    /** How many of the newest keys the recent replays spread over. */
    static final int RECENT_KEYS = 1_000;
    static final String MCP_NEW = "MCP: new";
    static final String MCP_REPLAY = "MCP: replay";
    /** The MCP series run where an agent's calls are: one at a time, and a few agents at once. */
    static final List<Integer> MCP_CONCURRENCY = List.of(1, 8);
    static final String JDBC_NEW = "JDBC: new";
    static final String JDBC_REPLAY = "JDBC: replay";
    static final String TRACING_OFF = "tracing off";
    static final String TRACING_ON = "tracing to a collector";
    static final String TRACING_DEAD = "tracing, collector down";
    /** The concurrency at which -Dbench.profile=true profiles the gateway, the one the CPU goals are judged at. */
    private static final int PROFILED_CONCURRENCY = 8;
    static final List<String> PEERS = List.of(Peers.DBOS, Peers.RESTATE);
    /** Fractions of the closed-loop c=8 throughput of new operations that the open-loop series offer. */
    private static final List<Double> OPEN_LOOP_SHARES = List.of(0.5, 0.8);
    /**
     * About how long one backlog run may take, and after which a backlog series starts no further
     * repeat: on 2 busy cores a 10,000 backlog takes many minutes, and the whole run is to stay well under half an hour.
     */
    private static final Duration BACKLOG_BUDGET = Duration.ofSeconds(90);
    /** Operations in the probe that measures the job's rate before the backlog is sized. */
    private static final int PROBE = 300;

    /** Where the peers run: their logs and data under {@code home}, DBOS on this PostgreSQL, Restate's binary. */
    record PeerSetup(Path home, int postgresPort, Path restateServer, Connection admin) {
    }

    interface SecondInstance {
        GatewayProcess start() throws Exception;
    }

    /** Starts another gateway instance on the same journal, tracing to the OTLP/HTTP collector at {@code endpoint}. */
    interface TracedInstance {
        GatewayProcess start(String endpoint) throws Exception;
    }

    private interface Repeated {
        Load.Result once(String run) throws Exception;
    }

    private final RunLength length;
    private Meter meter; // its simulators process changes when they are restarted
    private final Requests requests;
    private final GatewayProcess gateway;
    private final String token;
    private final DatabaseLimit database;
    private final Connection journal;
    private final SimulatorProcess simulators;
    /** Keys of operations the gateway created, for replays and reads. */
    private final List<String> created = Collections.synchronizedList(new ArrayList<>());
    /** What {@link #REPLAY}, {@link #MCP_REPLAY} and {@link #JDBC_REPLAY} replay: made after the warm-up. */
    private ReplayPool pool;
    private final Map<String, List<Cell>> closed = new LinkedHashMap<>();
    private final List<Cell> open = new ArrayList<>();
    private final List<Cell> backlog = new ArrayList<>();
    private final List<Cell> growth = new ArrayList<>();
    private final List<Cell> tracing = new ArrayList<>();
    private final List<Long> warmUps = new ArrayList<>();

    Measurements(RunLength length, Meter meter, Requests requests, GatewayProcess gateway, String token,
                 DatabaseLimit database, Connection journal, SimulatorProcess simulators) {
        this.length = length;
        this.meter = meter;
        this.requests = requests;
        this.gateway = gateway;
        this.token = token;
        this.database = database;
        this.journal = journal;
        this.simulators = simulators;
    }

    /** Every series, or only those {@code -Dbench.series} names (a development aid: a partial run judges fewer goals). */
    void all(SecondInstance second, TracedInstance traced, String operatorToken, PeerSetup peers) throws Exception {
        Set<String> only = Set.of(System.getProperty("bench.series", "closed,peers,open,backlog,tracing,growth").split("\\s*,\\s*"));
        warmUp();
        if (only.contains("closed")) {
            pool = ReplayPool.copying(journal, Requests.TENANT, created.get(0));
            for (int c : concurrencies()) {
                freshSimulators();
                closedLoop(c);
            }
        }
        if (only.contains("peers")) {
            for (String peer : PEERS) {
                freshSimulators();
                peer(peer, peers);
            }
        }
        if (only.contains("open") && closed.containsKey(NEW)) { // its arrival rates are shares of the closed loop's
            freshSimulators();
            openLoop();
        }
        if (only.contains("backlog")) {
            freshSimulators();
            backlog(second, operatorToken);
        }
        if (only.contains("tracing")) {
            freshSimulators();
            tracing(traced, operatorToken);
        }
        if (only.contains("growth")) {
            freshSimulators();
            growth();
        }
    }

    /** {@link #CONCURRENCY}, or those {@code -Dbench.concurrency} names (an experiment on one of them). */
    private static List<Integer> concurrencies() {
        String named = System.getProperty("bench.concurrency", "").trim();
        return named.isEmpty() ? CONCURRENCY : Arrays.stream(named.split("\\s*,\\s*")).map(Integer::valueOf).toList();
    }

    Results results(Map<String, String> settings, long idleKb, long peakKb) {
        return new Results(settings, closed, open, backlog, growth, tracing, idleKb, peakKb, length, List.copyOf(warmUps));
    }

    /** Every path at once, so all are compiled and every pool is full before the first figure ({@link WarmUp}). */
    private void warmUp() throws Exception {
        warmUp("", gateway, (run, round) -> {
            database.release(); // each round's workers are new threads: each borrows a connection again
            Load.closed(8, round, i -> {
                switch (i % 7) {
                    case 0 -> newOperation(run, i);
                    case 1 -> requests.direct(Requests.TENANT + "/direct-" + run + "-" + i);
                    case 2 -> requests.ping(gateway.baseUrl());
                    case 3 -> database.newOperation(Requests.payload());
                    case 6 -> newToolCall(run, i);
                    default -> {
                        if (created.isEmpty()) {
                            newOperation(run, i);
                        } else if (i % 7 == 4) {
                            requests.submit(gateway.baseUrl(), token, replayKey(i), 200);
                        } else {
                            requests.callTool(gateway.baseUrl(), token, replayKey(i), true);
                            requests.read(gateway.baseUrl(), replayKey(i));
                            database.replay(Requests.TENANT, replayKey(i));
                        }
                    }
                }
            });
        });
    }

    private void warmUp(String which, GatewayProcess instance, WarmUp.Round round) throws Exception {
        warmUp(which, instance.pid(), new WarmUp(length.warmUp(), length.isQuick()), round);
    }

    private void warmUp(String which, long pid, WarmUp warm, WarmUp.Round round) throws Exception {
        String prefix = "warm-" + which + RunNames.fresh() + "-";
        Map<String, Double> compiled = ProcessCpu.compilerMillis(pid);
        int rounds = 0;
        long started = System.nanoTime();
        while (true) {
            round.run(prefix + "round" + rounds++, warm.round());
            Map<String, Double> now = ProcessCpu.compilerMillis(pid);
            double spent = ProcessCpu.spentSince(compiled, now);
            Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
            if (warm.done(elapsed, spent)) {
                System.out.printf("  warmed up %sfor %d s: its JIT compiler threads spent %.0f ms in the last %d s%n",
                        which.replace('-', ' '), elapsed.toSeconds(), spent, warm.round().toSeconds());
                warmUps.add(elapsed.toSeconds());
                return;
            }
            compiled = now;
        }
    }

    private void closedLoop(int c) throws Exception {
        String url = gateway.baseUrl();
        add(closed, measure(DIRECT, "c=" + c, c, meter, run -> Load.closed(c, length.cell(),
                i -> requests.direct(Requests.TENANT + "/direct-" + run + "-" + i))));
        add(closed, measure(PING, "c=" + c, c, meter, run -> Load.closed(c, length.cell(), i -> requests.ping(url))));
        add(closed, measure(READ, "c=" + c, c, meter, run -> Load.closed(c, length.cell(),
                i -> requests.read(url, replayKey(i)))));
        // the direct floor leaves the 1C simulator tens of thousands of documents, which its small heap then collects
        // on the gateway's cells: each door starts on a fresh one (docs/benchmark.md, Method)
        freshSimulators();
        // unmeasured: the gateway's first cell after the floors' reads cost about a fifth more than the same door later
        // in the block, whichever door went first (docs/benchmark.md, Method)
        String leadIn = "lead-in-" + RunNames.fresh();
        Load.closed(c, length.cell(), i -> newOperation(leadIn, i));
        add(closed, withStatements(c == PROFILED_CONCURRENCY, () -> measure(NEW, "c=" + c, c, meter,
                run -> Load.closed(c, length.cell(), i -> newOperation(run, i)))));
        primePool();
        add(closed, withStatements(c == PROFILED_CONCURRENCY, () -> measure(REPLAY, "c=" + c, c, meter,
                run -> Load.closed(c, length.cell(), i -> requests.submit(url, token, pool.next(), 200)))));
        if (c == PROFILED_CONCURRENCY) {
            add(closed, measure(REPLAY_RECENT, "c=" + c, c, meter, run -> Load.closed(c, length.cell(),
                    i -> requests.submit(url, token, recentKey(i), 200))));
        }
        if (MCP_CONCURRENCY.contains(c)) {
            freshSimulators();
            add(closed, measure(MCP_NEW, "c=" + c, c, meter, run -> Load.closed(c, length.cell(), i -> newToolCall(run, i))));
            primePool();
            add(closed, measure(MCP_REPLAY, "c=" + c, c, meter, run -> Load.closed(c, length.cell(),
                    i -> requests.callTool(url, token, pool.next(), true))));
        }
        if (c == PROFILED_CONCURRENCY && Boolean.getBoolean("bench.profile")) {
            try {
                profile();
            } catch (Exception failed) { // a profile is an aid: the run's figures go on without it
                System.out.println("  no profile: " + failed);
            }
        }
        add(closed, withStatements(c == PROFILED_CONCURRENCY, () -> measure(JDBC_NEW, "c=" + c, c, meter,
                run -> Load.closed(c, length.cell(), i -> database.newOperation(Requests.payload())))));
        add(closed, withStatements(c == PROFILED_CONCURRENCY, () -> measure(JDBC_REPLAY, "c=" + c, c, meter,
                run -> Load.closed(c, length.cell(), i -> database.replay(Requests.TENANT, pool.next())))));
    }

    /** One untimed round of the pool before a cell replays it through the gateway ({@link ReplayPool}: why). */
    private void primePool() throws Exception {
        pool.prime(PROFILED_CONCURRENCY, key -> requests.submit(gateway.baseUrl(), token, key, 200));
    }

    private interface Measured {
        Cell cell() throws Exception;
    }

    /** The cell, and when {@code shown} PostgreSQL's statements per operation, to set beside the same SQL by plain JDBC. */
    private Cell withStatements(boolean shown, Measured measured) throws Exception {
        Map<String, double[]> before = shown ? meter.database().statements() : null;
        Cell cell = measured.cell();
        if (shown) {
            System.out.print("  PostgreSQL's statements in that cell, per operation:\n"
                    + DatabaseActivity.top(before, meter.database().statements(), 6, cell.calls()));
        }
        return cell;
    }

    static String peerNew(String peer) {
        return peer + ": new";
    }

    static String peerReplay(String peer) {
        return peer + ": replay";
    }

    /**
     * One peer doing the gateway's job (the same invoice at 1C, once per key), new and replayed at every concurrency,
     * warmed up as the gateway was. A peer that cannot start says why and the run goes on without it.
     */
    private void peer(String name, PeerSetup setup) throws Exception {
        System.out.println("  starting the peer " + name);
        Peers.Running peer;
        try {
            peer = name.equals(Peers.DBOS) ? Peers.dbos(setup.home(), setup.postgresPort(), simulators.url())
                    : Peers.restate(setup.home(), setup.restateServer(), simulators.url());
        } catch (Exception failed) {
            System.out.println("  the peer " + name + " could not start: " + failed);
            return;
        }
        try (peer) {
            // Restate keeps its state in its own log: its cells still count the journal database's statements (none)
            Meter by = meter.forPeer(peer.processes(), new DatabaseActivity(setup.admin(),
                    name.equals(Peers.DBOS) ? Peers.DBOS_DATABASE : Bench.DATABASE), name.equals(Peers.DBOS));
            List<String> keys = Collections.synchronizedList(new ArrayList<>());
            warmUp(name.replaceAll("[^A-Za-z]+", "-") + "-", peer.jvm(), new WarmUp(length.warmUp(), length.isQuick()),
                    (run, round) -> Load.closed(8, round, i -> {
                        if (i % 2 == 0 || keys.isEmpty()) {
                            newAtPeer(peer, keys, run, i);
                        } else {
                            requests.peer(peer.url(), peer.keyHeader(), keyOf(keys, i));
                        }
                    }));
            for (int c : CONCURRENCY) {
                add(closed, measure(peerNew(name), "c=" + c, c, by, run -> Load.closed(c, length.cell(),
                        i -> newAtPeer(peer, keys, run, i))));
                add(closed, measure(peerReplay(name), "c=" + c, c, by, run -> Load.closed(c, length.cell(),
                        i -> requests.peer(peer.url(), peer.keyHeader(), keyOf(keys, i)))));
            }
        }
    }

    private void newAtPeer(Peers.Running peer, List<String> keys, String run, int i) throws Exception {
        String key = "bench:invoice.create:peer-" + run + "-" + i + ":v1";
        requests.peer(peer.url(), peer.keyHeader(), key);
        keys.add(key);
    }

    /** The gateway's new operations and replays at c=8 once more under JFR ({@link Profile}): where its CPU goes. */
    private void profile() throws Exception {
        Path out = Path.of(System.getProperty("bench.out", "."));
        Duration stretch = length.cell().multipliedBy(length.repeats());
        String url = gateway.baseUrl();
        String run = "profiled-" + RunNames.fresh();
        System.out.print(Profile.record(gateway.pid(), "profile-new", out, ignored -> Load.closed(PROFILED_CONCURRENCY, stretch,
                i -> newOperation(run, i))));
        primePool();
        System.out.print(Profile.record(gateway.pid(), "profile-replay", out, ignored -> Load.closed(PROFILED_CONCURRENCY, stretch,
                i -> requests.submit(url, token, pool.next(), 200))));
    }

    /** New operations offered at a fixed rate below capacity: the latency an agent sees when the gateway is not saturated. */
    private void openLoop() throws Exception {
        double capacity = closed.get(NEW).get(1).throughput().median();
        for (double share : OPEN_LOOP_SHARES) {
            double rate = Math.max(1, Math.round(capacity * share));
            open.add(measure(NEW + ", open loop", String.format("%.0f/s (%.0f%%)", rate, share * 100), 0, meter,
                    run -> Load.open(rate, length.openLoopCell(), i -> newOperation(run, i))));
        }
    }

    /** The run length's backlog, cut to what the rate a {@link #PROBE} measured settles in {@link #BACKLOG_BUDGET}. */
    private void backlog(SecondInstance second, String operatorToken) throws Exception {
        Backlog settling = new Backlog(journal, requests);
        double rate = settling.settle(PROBE, List.of(gateway.baseUrl()), operatorToken).throughput();
        int size = (int) Math.min(length.backlog(), Math.max(PROBE, rate * BACKLOG_BUDGET.toSeconds()));
        if (size < length.backlog()) {
            System.out.printf("  the job settled a probe of %d at %.0f/s: backlog cut from %,d to %,d to finish in about %d s%n",
                    PROBE, rate, length.backlog(), size, BACKLOG_BUDGET.toSeconds());
        }
        String load = String.format("%,d%s, ", size, Backlog.TARGET.label);
        warmUpBacklog("backlog-", gateway, settling, rate, operatorToken);
        Map<String, double[]> before = meter.database().statements();
        backlog.add(settled(load + "1 instance", 1, meter, settling, size, List.of(gateway.baseUrl()), operatorToken));
        Cell one = backlog.get(backlog.size() - 1);
        System.out.print("  PostgreSQL's statements in that series, by execution time, per settled item (the backlog's own"
                + " inserts included):\n" + DatabaseActivity.top(before, meter.database().statements(), 10, one.calls()));
        if (Boolean.getBoolean("bench.profile")) {
            try {
                Backlog.Prepared built = settling.prepare(size); // built before the recording: the benchmark's work, not the job's
                System.out.print(Profile.record(gateway.pid(), "profile-backlog", Path.of(System.getProperty("bench.out", ".")),
                        ignored -> built.settle(List.of(gateway.baseUrl()), operatorToken)));
            } catch (Exception failed) { // a profile is an aid: the run's figures go on without it
                System.out.println("  no profile: " + failed);
            }
        }
        System.out.println("  starting a second gateway instance on the same journal");
        try (GatewayProcess other = second.start()) {
            warmUpBacklog("second-instance-", other, settling, rate, operatorToken);
            Meter both = meter.with(ProcessCpu.of("gateway", List.of(gateway.pid(), other.pid())));
            backlog.add(settled(load + "2 instances", 2, both, settling, size, List.of(gateway.baseUrl(), other.baseUrl()), operatorToken));
        }
    }

    /**
     * Backlogs settled by {@code instance} alone until its JIT is quiet, each about a round's worth at {@code rate}: the
     * compiler's work on the job's path is no item's, and a second instance starts cold. Then the simulators start
     * afresh, as before every series: the warm-up leaves them holding its documents by the ten thousand.
     */
    private void warmUpBacklog(String which, GatewayProcess instance, Backlog settling, double rate, String operatorToken)
            throws Exception {
        warmUp(which, instance, (run, round) -> settling.settle((int) Math.max(PROBE, rate * round.toSeconds()),
                List.of(instance.baseUrl()), operatorToken));
        freshSimulators();
    }

    /** The backlog settled as often as the run length says within {@link #BACKLOG_BUDGET}; building it is set-up ({@link Staged}). */
    private Cell settled(String load, int instances, Meter by, Backlog settling, int size, List<String> gateways, String operatorToken)
            throws Exception {
        return staged("reconcile backlog", load, instances, by, run -> {
            Backlog.Prepared built = settling.prepare(size);
            return ready -> built.settle(gateways, operatorToken);
        }, BACKLOG_BUDGET);
    }

    /**
     * New operations and replays at c=8 with tracing off (this gateway), then on a gateway of their own
     * (warmed up as this one was) tracing to a collector that takes everything, and to one that is down: what
     * tracing costs an agent's call, and that a dead collector costs it nothing more.
     */
    private void tracing(TracedInstance traced, String operatorToken) throws Exception {
        tracingCells(TRACING_OFF, gateway.baseUrl(), meter);
        try (OtlpSink collector = OtlpSink.start()) {
            for (String label : List.of(TRACING_ON, TRACING_DEAD)) {
                String endpoint = label.equals(TRACING_ON) ? collector.endpoint() : "http://127.0.0.1:" + LocalStack.freePort();
                // each instance's warm-up creates documents by the hundred thousand: in the simulators' small heap the
                // next cells would measure its garbage collector
                freshSimulators();
                System.out.println("  starting a gateway instance " + label);
                try (GatewayProcess other = traced.start(endpoint)) {
                    String url = other.baseUrl();
                    warmUp(label.replaceAll("[^a-z]+", "-") + "-", other, (run, round) -> Load.closed(8, round, i -> {
                        if (i % 2 == 0) {
                            newOperationAt(url, run, i);
                        } else {
                            requests.submit(url, token, replayKey(i), 200);
                        }
                    }));
                    tracingCells(label, url, meter.with(ProcessCpu.of("gateway", List.of(other.pid()))));
                    System.out.printf("  %s: %s%n", label, label.equals(TRACING_ON)
                            ? String.format("the collector took %,d exports, %,d KiB", collector.exports(), collector.bytes() / 1024)
                            : requests.spanExports(url, operatorToken));
                }
            }
        }
    }

    private void tracingCells(String label, String url, Meter by) throws Exception {
        tracing.add(measure("new, " + label, "c=8", 8, by, run -> Load.closed(8, length.cell(), i -> newOperationAt(url, run, i))));
        tracing.add(measure("replay, " + label, "c=8", 8, by, run -> Load.closed(8, length.cell(),
                i -> requests.submit(url, token, replayKey(i), 200))));
    }

    /** New operations and replays at c=8 with the journal holding each size of realistic operations. */
    private void growth() throws Exception {
        JournalFiller.empty(journal);
        created.clear();
        for (int size : length.journalSizes()) {
            System.out.printf("  filling the journal to %,d operations%n", size);
            JournalFiller.fill(journal, size);
            String rows = String.format("%,d rows", size);
            growth.add(measure("journal: new", rows, 8, meter, run -> Load.closed(8, length.cell(), i -> newOperation(run, i))));
            growth.add(measure("journal: replay", rows, 8, meter, run -> Load.closed(8, length.cell(),
                    i -> requests.submit(gateway.baseUrl(), token, replayKey(i), 200))));
        }
    }

    /**
     * Empty simulators (SimulatorProcess says why); then a few untimed calls, so the gateway and the load generator
     * drop the connections the old process closed; then untimed load until the new process's JIT is quiet
     * ({@link WarmUp#simulators}).
     */
    private void freshSimulators() throws Exception {
        simulators.restart();
        meter = meter.with(ProcessCpu.of("simulators", List.of(simulators.pid())));
        String run = "reconnect-" + RunNames.fresh();
        for (int i = 0; i < 20; i++) {
            try {
                newOperation(run, i);
                requests.direct(Requests.TENANT + "/" + run + "-" + i);
            } catch (Exception staleConnection) {
                // expected for the first calls on a closed connection
            }
        }
        warmUp("simulators-", simulators.pid(), WarmUp.simulators(length), (name, round) -> Load.closed(8, round, i -> {
            switch (i % 3) {
                case 0 -> newOperation(name, i);
                case 1 -> requests.direct(Requests.TENANT + "/" + name + "-" + i);
                default -> requests.lookUpDirect(Requests.TENANT + "/" + name + "-" + (i - 1));
            }
        }));
    }

    private Cell measure(String series, String load, int concurrency, Meter by, Repeated repeated) throws Exception {
        return measure(series, load, concurrency, by, repeated, Duration.ofDays(1));
    }

    /** Repeats the run as often as the run length says, but starts no further run once {@code budget} is spent (at least one run). */
    private Cell measure(String series, String load, int concurrency, Meter by, Repeated repeated, Duration budget)
            throws Exception {
        return staged(series, load, concurrency, by, run -> repeated, budget);
    }

    /** A run with a set-up of its own, which is the benchmark's work and left out of the figures. */
    private interface Staged {
        Repeated setUp(String run) throws Exception;
    }

    private Cell staged(String series, String load, int concurrency, Meter by, Staged staged, Duration budget) throws Exception {
        Meter.Reading start = by.read();
        List<Load.Result> runs = new ArrayList<>();
        long until = System.nanoTime() + budget.toNanos();
        for (int r = 0; r < length.repeats() && (r == 0 || System.nanoTime() < until); r++) {
            database.release();
            String run = RunNames.fresh();
            Meter.Reading settingUp = by.read();
            Repeated ready = staged.setUp(run);
            start = start.excluding(settingUp, by.read());
            runs.add(ready.once(run));
        }
        Cell cell = new Cell(series, load, concurrency, runs, by.since(start, runs.stream().mapToLong(Load.Result::calls).sum()));
        Report.line(cell);
        return cell;
    }

    private void newOperation(String run, int i) throws Exception {
        newOperationAt(gateway.baseUrl(), run, i);
    }

    private void newOperationAt(String url, String run, int i) throws Exception {
        String key = "bench:invoice.create:" + run + "-" + i + ":v1";
        requests.submit(url, token, key, 201);
        created.add(key);
    }

    private void newToolCall(String run, int i) throws Exception {
        String key = "bench:invoice.create:mcp-" + run + "-" + i + ":v1";
        requests.callTool(gateway.baseUrl(), token, key, false);
        created.add(key);
    }

    private String replayKey(int i) {
        return keyOf(created, i);
    }

    private String recentKey(int i) {
        synchronized (created) {
            int recent = Math.min(RECENT_KEYS, created.size());
            return created.get(created.size() - 1 - Math.floorMod(i * 7919, recent));
        }
    }

    private static String keyOf(List<String> keys, int i) {
        synchronized (keys) {
            return keys.get(Math.floorMod(i * 7919, keys.size())); // spread over all keys, not only the newest
        }
    }

    private static void add(Map<String, List<Cell>> series, Cell cell) {
        series.computeIfAbsent(cell.series(), n -> new ArrayList<>()).add(cell);
    }
}

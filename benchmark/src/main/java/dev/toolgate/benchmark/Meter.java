package dev.toolgate.benchmark;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What a stretch of load cost each process and the database, divided by the operations it did. */
final class Meter {

    /** Per operation: CPU milliseconds of each process, and the database's statements, transactions, commits, WAL syncs. */
    record Costs(Map<String, Double> cpuMillis, double statements, double begins, double commits, double walSyncs) {
    }

    /** The counters at the start of a stretch. */
    record Reading(List<Double> cpu, DatabaseActivity.Counters database) {

        /** This start moved on by what was spent from {@code from} to {@code to}: a set-up inside the stretch, not metered. */
        Reading excluding(Reading from, Reading to) {
            List<Double> moved = new ArrayList<>();
            for (int i = 0; i < cpu.size(); i++) {
                moved.add(cpu.get(i) + to.cpu().get(i) - from.cpu().get(i));
            }
            return new Reading(moved, database.plus(to.database().minus(from.database())));
        }
    }

    private final List<ProcessCpu> processes;
    private final DatabaseActivity database;

    Meter(List<ProcessCpu> processes, DatabaseActivity database) {
        this.processes = processes;
        this.database = database;
    }

    /** The same, with {@code process} in place of the one of its name (two gateway instances; restarted simulators). */
    Meter with(ProcessCpu process) {
        return new Meter(processes.stream().map(p -> p.name().equals(process.name()) ? process : p).toList(), database);
    }

    /**
     * For a peer: its own processes in place of the gateway, the others as they are, and the peer's database; without
     * PostgreSQL for a peer that keeps its state elsewhere, whose system the server's own background work is no part of.
     */
    Meter forPeer(List<ProcessCpu> own, DatabaseActivity peerDatabase, boolean onPostgres) {
        List<ProcessCpu> all = new ArrayList<>(own);
        processes.stream().filter(p -> !p.name().equals("gateway") && (onPostgres || !p.name().equals("postgres"))).forEach(all::add);
        return new Meter(all, peerDatabase);
    }

    DatabaseActivity database() {
        return database;
    }

    Reading read() {
        List<Double> cpu = new ArrayList<>();
        processes.forEach(p -> cpu.add(p.millis()));
        return new Reading(cpu, database.now());
    }

    Costs since(Reading start, long operations) {
        Reading end = read();
        double ops = Math.max(1, operations);
        Map<String, Double> cpu = new LinkedHashMap<>();
        for (int i = 0; i < processes.size(); i++) {
            cpu.put(processes.get(i).name(), (end.cpu().get(i) - start.cpu().get(i)) / ops);
        }
        DatabaseActivity.Counters d = end.database().minus(start.database());
        return new Costs(cpu, d.statements() / ops, d.begins() / ops, d.commits() / ops, d.walSyncs() / ops);
    }
}

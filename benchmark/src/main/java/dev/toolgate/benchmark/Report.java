package dev.toolgate.benchmark;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The benchmark's figures as one table on stdout and as JSON. A figure is the median of the repeats
 * with its min–max spread; CPU is milliseconds per operation for each process; stmt and commit are the
 * journal database's statements and commits per operation (commit: pg_stat_database.xact_commit,
 * read-only transactions included; tx: explicit transactions, from the BEGINs pg_stat_statements saw).
 */
final class Report {

    private static final String HEADER = String.format("%-26s %-15s %4s %22s %22s %22s %9s  %-40s %s", "series", "load",
            "runs", "ops/s", "p50 ms", "p99 ms", "max ms", "CPU ms/op: gw pg sim load", "stmt tx commit walsync /op");

    /** The shared processes' names in a peer's row, where each process is named. */
    private static final Map<String, String> SHORT = Map.of("postgres", "pg", "simulators", "sim", "load generator", "load");

    private Report() {
    }

    /** One cell as soon as it is measured, so a long run shows its progress. */
    static void line(Cell c) {
        System.out.println(row(c));
    }

    static void print(Results r) {
        System.out.printf("%nPostgreSQL: %s%nrepeats per cell: %d, warm-up at least %d s, until the JIT settled: %s s%n%n%s%n",
                r.settings(), r.length().repeats(), r.length().warmUp().toSeconds(), r.warmUpSeconds(), HEADER);
        r.closedLoop().values().stream().flatMap(List::stream).forEach(Report::line);
        System.out.println("open loop (latency from the scheduled send):");
        r.openLoop().forEach(Report::line);
        System.out.println("reconciliation (ops/s = settled per second; max = until the last was settled):");
        r.backlog().forEach(Report::line);
        System.out.println("tracing (OpenTelemetry over OTLP/HTTP; a gateway of its own for each exporter):");
        r.tracing().forEach(Report::line);
        System.out.println("journal size (c=8):");
        r.growth().forEach(Report::line);
        System.out.printf("%ngateway resident memory: idle (just started) %d MiB, peak %d MiB%n", r.idleKb() / 1024,
                r.peakKb() / 1024);
        Goals.print(Goals.of(r));
    }

    private static String row(Cell c) {
        Meter.Costs k = c.costs();
        StringBuilder cpu = new StringBuilder();
        // a peer's own processes stand where the gateway's does, named, as they are more than one
        boolean peer = !k.cpuMillis().containsKey("gateway");
        k.cpuMillis().forEach((name, v) -> cpu.append(peer ? String.format(" %s %.2f", SHORT.getOrDefault(name, name), v)
                : String.format("%6.2f", v)));
        if (peer) { // what the CPU goals compare with the gateway's and PostgreSQL's
            cpu.append(String.format(" = system %.2f", Goals.system(c)));
        }
        return String.format("%-26s %-15s %4d %22s %22s %22s %9.1f  %-40s %5.1f %4.1f %5.1f %5.2f", c.series(), c.load(),
                c.runs().size(), spread(c.throughput(), "%.0f"), spread(c.p50(), "%.2f"), spread(c.p99(), "%.2f"), c.max().max(), cpu,
                k.statements(), k.begins(), k.commits(), k.walSyncs());
    }

    /** The median, and the spread when there was more than one run. */
    private static String spread(Cell.Figure f, String format) {
        String median = String.format(format, f.median());
        return f.min() == f.max() ? median : median + " [" + String.format(format, f.min()) + "–" + String.format(format, f.max()) + "]";
    }

    static void json(Results r, Path file) throws IOException {
        JsonObjectBuilder closed = Json.createObjectBuilder();
        r.closedLoop().forEach((name, cells) -> closed.add(name, cells(cells)));
        JsonObjectBuilder settings = Json.createObjectBuilder();
        r.settings().forEach(settings::add);
        Files.writeString(file, Json.createObjectBuilder()
                .add("quick", r.length().isQuick())
                .add("repeats", r.length().repeats())
                .add("warm_up_seconds", r.length().warmUp().toSeconds())
                .add("warmed_up_seconds", Json.createArrayBuilder(r.warmUpSeconds()))
                .add("postgresql", settings)
                .add("series", closed)
                .add("open_loop", cells(r.openLoop()))
                .add("reconcile_backlog", cells(r.backlog()))
                .add("journal_growth", cells(r.growth()))
                .add("tracing", cells(r.tracing()))
                .add("gateway_idle_rss_mib", r.idleKb() / 1024)
                .add("gateway_peak_rss_mib", r.peakKb() / 1024)
                .add("goals", Goals.json(Goals.of(r)))
                .build().toString());
    }

    private static JsonArrayBuilder cells(List<Cell> cells) {
        JsonArrayBuilder array = Json.createArrayBuilder();
        for (Cell c : cells) {
            JsonObjectBuilder cpu = Json.createObjectBuilder();
            c.costs().cpuMillis().forEach((process, ms) -> cpu.add(process, Goals.round(ms)));
            array.add(Json.createObjectBuilder().add("series", c.series()).add("load", c.load())
                    .add("concurrency", c.concurrency()).add("runs", c.runs().size()).add("calls", c.calls())
                    .add("ops_per_second", figure(c.throughput())).add("p50_ms", figure(c.p50()))
                    .add("p99_ms", figure(c.p99())).add("max_ms", figure(c.max()))
                    .add("cpu_ms_per_op", cpu).add("statements_per_op", Goals.round(c.costs().statements()))
                    .add("transactions_per_op", Goals.round(c.costs().begins()))
                    .add("commits_per_op", Goals.round(c.costs().commits()))
                    .add("wal_syncs_per_op", Goals.round(c.costs().walSyncs())));
        }
        return array;
    }

    private static JsonObjectBuilder figure(Cell.Figure f) {
        return Json.createObjectBuilder().add("median", Goals.round(f.median())).add("min", Goals.round(f.min()))
                .add("max", Goals.round(f.max()));
    }
}

package dev.toolgate.benchmark;

import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The benchmark's figures as one table on stdout and as JSON. */
final class Report {

    private Report() {
    }

    static void print(Map<String, List<Load.Result>> series, List<Load.Result> growth, long peakKb) {
        System.out.printf("%n%-16s %4s %10s %9s %9s %9s%n", "series", "c", "ops/s", "p50 ms", "p99 ms", "max ms");
        series.values().stream().flatMap(List::stream).forEach(r -> System.out.printf("%-16s %4d %10.0f %9.2f %9.2f %9.2f%n",
                r.name(), r.concurrency(), r.throughput(), r.millis(50), r.millis(99), r.maxMillis()));
        List<Load.Result> direct = series.get("direct to 1C");
        List<Load.Result> created = series.get("gateway: new");
        List<Load.Result> database = series.get("database limit");
        System.out.printf("%n%-4s %24s %28s%n", "c", "gateway ÷ direct (p50)", "gateway ÷ db limit (ops/s)");
        for (int i = 0; i < created.size(); i++) {
            System.out.printf("%-4d %24.2f %28.2f%n", created.get(i).concurrency(),
                    created.get(i).millis(50) / direct.get(i).millis(50), created.get(i).throughput() / database.get(i).throughput());
        }
        System.out.printf("%nnew operations, c=8, journal size:%n");
        growth.forEach(r -> System.out.printf("  %-18s p50 %6.2f ms  p99 %6.2f ms  %6.0f ops/s%n", r.name(), r.millis(50),
                r.millis(99), r.throughput()));
        System.out.printf("%ngateway peak resident memory: %d MiB%n", peakKb / 1024);
    }

    static void json(Map<String, List<Load.Result>> series, List<Load.Result> growth, long peakKb, Path file) throws IOException {
        JsonObjectBuilder all = Json.createObjectBuilder();
        series.forEach((name, results) -> all.add(name, Bench.array(results)));
        Files.writeString(file, Json.createObjectBuilder()
                .add("series", all)
                .add("journal_growth", Bench.array(growth))
                .add("gateway_peak_rss_mib", peakKb / 1024)
                .build().toString());
    }
}

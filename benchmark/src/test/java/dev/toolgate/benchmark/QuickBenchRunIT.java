package dev.toolgate.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.toolgate.launcher.LocalStack;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The benchmark as {@code -P bench} starts it — its own JVM on the module's runtime class path (not the test's,
 * which holds more), the same arguments — quick and with one series, inside the ordinary {@code mvn verify}.
 * It checks only that the benchmark starts, measures every series it was asked for and writes bench.json:
 * once it broke at start with a NoClassDefFoundError and nothing noticed. Its figures mean nothing here.
 */
class QuickBenchRunIT {

    /** Where each {@code -Dbench.series} name's cells are in bench.json (Report.json). */
    private static final Map<String, String> SERIES_IN_JSON = Map.of("closed", "series", "peers", "series", "open", "open_loop",
            "backlog", "reconcile_backlog", "tracing", "tracing", "growth", "journal_growth");
    private static final long LONGEST_MINUTES = 15;
    private static final String NICE = "/usr/bin/nice";
    private static final String NICENESS = "10";

    @Test
    void theQuickRunStartsMeasuresEverySeriesAskedForAndWritesBenchJson() throws Exception {
        String series = System.getProperty("bench.check.series", "growth");
        Path out = Files.createDirectories(Path.of("target", "bench-check").toAbsolutePath());
        Path json = out.resolve("bench.json");
        Files.deleteIfExists(json);
        Path log = out.resolve("bench.log");

        List<String> command = new ArrayList<>();
        // at a lower CPU priority, the processes it starts too: its figures are not checked here, and it runs beside the
        // it module's first suites (-T2), which then keep the cores
        if (Files.isExecutable(Path.of(NICE))) {
            command.addAll(List.of(NICE, "-n", NICENESS));
        }
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.awt.headless=true", "-classpath", runtimeClassPath(),
                "-Dtoolgate.runtime=" + Path.of("target", "runtime").toAbsolutePath(),
                "-Dbench.out=" + out, "-Dbench.quick=true", "-Dbench.series=" + series, "-Dbench.backlog=0",
                "dev.toolgate.benchmark.Bench"));
        Process bench = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!bench.waitFor(LONGEST_MINUTES, TimeUnit.MINUTES)) {
            bench.destroyForcibly().waitFor();
            fail("the quick benchmark run did not end within " + LONGEST_MINUTES + " minutes; see " + log + tail(log));
        }
        assertEquals(0, bench.exitValue(), "the benchmark failed; see " + log + tail(log));
        assertTrue(Files.exists(json), "no bench.json; see " + log + tail(log));

        JsonObject written;
        try (JsonReader reader = Json.createReader(new StringReader(Files.readString(json)))) {
            written = reader.readObject();
        }
        assertTrue(written.getBoolean("quick"), "a quick run says so in bench.json");
        for (String asked : series.split("\\s*,\\s*")) {
            assertTrue(SERIES_IN_JSON.containsKey(asked), "no such series: " + asked);
            JsonValue cells = written.get(SERIES_IN_JSON.get(asked));
            assertTrue(cells != null, "bench.json has no " + SERIES_IN_JSON.get(asked));
            boolean measured = cells instanceof JsonObject object ? !object.isEmpty() : !cells.asJsonArray().isEmpty();
            assertTrue(measured, "series " + asked + " was asked for but bench.json has no cells of it");
        }
    }

    /** The module's classes and its runtime dependencies, as exec-maven-plugin's {@code <classpath/>} gives -P bench. */
    private static String runtimeClassPath() throws IOException {
        String dependencies = Files.readString(Path.of(System.getProperty("bench.classpath.file")), StandardCharsets.UTF_8).strip();
        assertFalse(dependencies.isEmpty(), "the build wrote no runtime class path");
        return Path.of("target", "classes").toAbsolutePath() + File.pathSeparator + dependencies;
    }

    private static String tail(Path log) {
        List<String> end = LocalStack.lastLines(log, 30);
        return end.isEmpty() ? "" : ":\n  " + String.join("\n  ", end);
    }
}

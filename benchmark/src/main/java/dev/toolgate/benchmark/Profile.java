package dev.toolgate.benchmark;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Where a JVM's CPU goes during one stretch of load (-Dbench.profile=true): a JFR recording of the process with the
 * JDK's "profile" settings (a Java stack sampled every 10 ms per running thread), read back into three tables —
 * the methods on top of the stacks, our code (the topmost dev.toolgate frame of each sample, so a method is charged
 * with the library and container code it calls), and the packages on top of the stacks (the container's among them).
 * The profiled stretch is a run of its own beside the measured cells, so the recording's cost is in no figure.
 */
final class Profile {

    private static final String OURS = "dev.toolgate.";
    private static final int TOP = 15;
    /** The kinds of work a cut would go after, each by the names in its stacks; the first that matches a sample takes it. */
    private static final Map<String, List<String>> PURPOSES = purposes();

    private Profile() {
    }

    /** Runs {@code load} while JFR records process {@code pid}; writes {@code <name>.jfr} and {@code <name>.txt} into {@code out}. */
    static String record(long pid, String name, Path out, Load.Call load) throws Exception {
        Path jfr = out.resolve(name + ".jfr");
        Files.deleteIfExists(jfr);
        jcmd(pid, "JFR.start", "name=" + name, "settings=profile");
        try {
            load.run(0);
        } finally {
            jcmd(pid, "JFR.stop", "name=" + name, "filename=" + jfr);
        }
        String summary = summary(name, jfr);
        Files.writeString(out.resolve(name + ".txt"), summary, StandardCharsets.UTF_8);
        return summary;
    }

    static String summary(String name, Path jfr) throws IOException {
        Map<String, Integer> methods = new HashMap<>();
        Map<String, Integer> ours = new HashMap<>();
        Map<String, Integer> packages = new HashMap<>();
        Map<String, Integer> purposes = new HashMap<>();
        int samples = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            RecordedStackTrace stack = e.getStackTrace();
            if (!e.getEventType().getName().equals("jdk.ExecutionSample") || stack == null || stack.getFrames().isEmpty()) {
                continue;
            }
            samples++;
            List<RecordedFrame> frames = stack.getFrames();
            String top = frames.get(0).getMethod().getType().getName();
            methods.merge(top + "." + frames.get(0).getMethod().getName(), 1, Integer::sum);
            packages.merge(packageOf(top), 1, Integer::sum);
            purposes.merge(purpose(frames), 1, Integer::sum);
            ours.merge(frames.stream().map(f -> f.getMethod().getType().getName() + "." + f.getMethod().getName())
                    .filter(m -> m.startsWith(OURS)).findFirst().orElse("(no dev.toolgate frame)"), 1, Integer::sum);
        }
        StringBuilder text = new StringBuilder(String.format("profile %s: %,d samples%n", name, samples));
        table(text, "what the work is for (each sample once, by the first rule its stack matches)", purposes, samples);
        table(text, "methods on top of the stack (self)", methods, samples);
        table(text, "our code: the topmost dev.toolgate frame (with what it calls)", ours, samples);
        table(text, "packages on top of the stack (self)", packages, samples);
        return text.toString();
    }

    /**
     * What a sample's work is for: the first of {@link #PURPOSES} one of whose class or method names is in its stack;
     * else the container's own, with no frame of ours (the HTTP server's threads, other background threads) or under
     * our outermost filter (the servlet and JAX-RS dispatch before our code), else the rest of ours.
     */
    private static String purpose(List<RecordedFrame> frames) {
        List<String> names = frames.stream().map(f -> f.getMethod().getType().getName() + "." + f.getMethod().getName()).toList();
        for (Map.Entry<String, List<String>> p : PURPOSES.entrySet()) {
            if (names.stream().anyMatch(n -> p.getValue().stream().anyMatch(n::contains))) {
                return p.getKey();
            }
        }
        String ours = names.stream().filter(n -> n.startsWith(OURS)).findFirst().orElse(null);
        return ours == null ? "container: no frame of ours (HTTP server threads, background)"
                : ours.endsWith("InputEdge.doFilter") || ours.endsWith("Stopping.doFilter")
                ? "container: under our outermost filters (servlet, JAX-RS dispatch)"
                : "the rest of our code, with the EJB and CDI calls around it";
    }

    /** The first three parts of a class's package (org.glassfish.grizzly, org.eclipse.persistence, java.util, dev.toolgate.journal). */
    private static String packageOf(String className) {
        String[] parts = className.split("\\.");
        int n = Math.min(parts.length - 1, 3);
        return n <= 0 ? className : String.join(".", List.of(parts).subList(0, n));
    }

    private static Map<String, List<String>> purposes() {
        Map<String, List<String>> p = new LinkedHashMap<>();
        p.put("the target call (Apache HttpClient, TargetHttpClient, the 1C adapter)",
                List.of("org.apache.hc", "TargetHttpClient", "OneCDocuments"));
        p.put("Jakarta Security's bridge and JACC, on every request",
                List.of("HttpBridgeServerAuthModule", "JaccWebAuthorizationManager", "WebSecurityManager"));
        p.put("Payara's JAX-RS telemetry listener", List.of("OpenTelemetryRequestEventListener"));
        p.put("Payara Micro's Hazelcast", List.of("hazelcast"));
        p.put("journal: SQL, driver, row mapping", List.of("JournalConnections", "OperationRows", "org.postgresql", "FencedWrites", "NumberedSql"));
        p.put("event log lines", List.of("StructuredLog", "JBossMdc", "EventLog"));
        p.put("payload: parse, canonicalize, card-number scan",
                List.of("dev.toolgate.canonical", "CommandParser", "IdempotencyKeyHeader", "InputEdge.check", "Inputs."));
        p.put("bearer token check", List.of("Authentication.filter"));
        p.put("the answer: the operation as JSON", List.of("Answers.", "Operation.json"));
        return p;
    }

    /** Reads recordings made earlier: {@code java -cp target/classes dev.toolgate.benchmark.Profile target/profile-new.jfr}. */
    public static void main(String[] recordings) throws IOException {
        for (String file : recordings) {
            Path jfr = Path.of(file);
            System.out.print(summary(jfr.getFileName().toString().replace(".jfr", ""), jfr));
        }
    }

    private static void table(StringBuilder text, String title, Map<String, Integer> counts, int samples) {
        text.append("  ").append(title).append(":\n");
        counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(TOP)
                .forEach(c -> text.append(String.format("    %5.1f%%  %s%n", 100.0 * c.getValue() / Math.max(1, samples), c.getKey())));
    }

    private static void jcmd(long pid, String... command) throws IOException, InterruptedException {
        List<String> line = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid)));
        line.addAll(List.of(command));
        Process jcmd = new ProcessBuilder(line).redirectErrorStream(true).start();
        String said = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!jcmd.waitFor(60, TimeUnit.SECONDS) || jcmd.exitValue() != 0) {
            throw new IOException(String.join(" ", line) + " failed: " + said);
        }
    }
}

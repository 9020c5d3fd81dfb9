package dev.toolgate.launcher;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The gateway on Payara Micro, as a process of its own ({@code java -jar payara-micro.jar}, so
 * the jar's manifest supplies its --add-opens). Killable with SIGKILL to test crashes.
 */
public final class GatewayProcess implements AutoCloseable {

    /**
     * How long a start may take before the gateway has answered, judged by the CPU it has had (StartPatience): the local
     * run's gateway, on C1, answers after about 14 s of its CPU, so four minutes of it is a failure; ten minutes by the clock with
     * neither an answer nor the CPU is a hang. A start at low priority beside other builds (the quick benchmark) waits
     * for its turn at the cores without a longer limit of its own.
     */
    static final StartPatience READY = new StartPatience(Duration.ofMinutes(4), Duration.ofMinutes(10));
    /**
     * The gateway's heap bound, unless its JVM options name another: G1 grows the heap to its bound under load, so the
     * bound sets the resident peak; 176 MiB keeps it under 512 at no more CPU per operation than 256 (docs/benchmark.md, Memory).
     */
    static final String HEAP = "-Xmx176m";
    /**
     * How long an orderly stop lets the calls in flight finish: enough for the local run's and the tests' target calls
     * (docs/operations.md sizes it for production). A call cut off is not lost: its lease lapses and it is looked up.
     */
    public static final Duration DRAIN = Duration.ofSeconds(2);

    private final Path runtime;
    private final int port;
    private final Map<String, String> environment;
    private final Path log;
    private final List<Path> alongside = new ArrayList<>();
    private final List<String> jvmOptions = new ArrayList<>();
    private final List<String> postBootCommands = new ArrayList<>();
    private final List<String> serverOptions = new ArrayList<>();
    private List<String> javaCommand = LocalStack.javaCommand();
    private Duration drain = DRAIN;
    /**
     * Which gateway last started on each port: a restart on the same port is a new object, and the old one's late close
     * must not empty the new one's root folder.
     */
    private static final Map<Integer, GatewayProcess> ROOT_OWNERS = new java.util.concurrent.ConcurrentHashMap<>();
    private Process process;
    private long logStart; // the log is appended to across restarts: only what this start wrote counts

    /** @param runtime the folder holding {@code payara-micro.jar} and {@code ROOT.war} */
    public GatewayProcess(Path runtime, int port, Map<String, String> environment, Path log) {
        this.runtime = runtime;
        this.port = port;
        this.environment = environment;
        this.log = log;
    }

    /**
     * Micro keeps its batch job repository in a non-XA H2 pool, which fails beside a non-XA PostgreSQL datasource in
     * one chunk transaction ("Local transaction already has 1 non-XA Resource"); a non-transactional repository pool
     * keeps the batch runtime's own writes out of it (docs/architecture.md, Transactions).
     *
     * <p>Single sign-on off: Micro 7 keeps a console sign-in's single sign-on in the data grid, and without one
     * ({@code --nohazelcast}) the identity provider's callback fails with 500; the console keeps its sign-in in its own
     * session. WarOnPayaraMicro7IT's sign-in and sign-out tests show it still needed.
     */
    public static final String POST_BOOT = "set resources.jdbc-connection-pool.H2Pool.non-transactional-connections=true\n"
            + "set configs.config.server-config.http-service.virtual-server.server.sso-enabled=false\n";

    /** Writes the post-boot command file Micro needs for Jakarta Batch; returns its path. */
    public static Path postBootFile(Path folder) throws IOException {
        Files.createDirectories(folder);
        return Files.writeString(folder.resolve("micro-postboot.txt"), POST_BOOT);
    }

    /** Deploys {@code war} into the same Micro beside the gateway, at the file's name: the benchmark's floor endpoints. */
    public GatewayProcess alsoDeploying(Path war) {
        alongside.add(war);
        return this;
    }

    /** {@link #DRAIN} for a run whose slowest target call is longer (docs/operations.md, Upgrading). */
    public GatewayProcess withDrain(Duration drain) {
        this.drain = drain;
        return this;
    }

    /** Runs Micro on the JDK at {@code home}: Micro 7 needs Java 21 or newer ({@link Jdks}). */
    public GatewayProcess withJava(Path home) {
        javaCommand = List.of(home.resolve("bin").resolve("java").toString());
        return this;
    }

    /** Runs the {@code asadmin} commands of {@code script} after boot too, as an operator's post-boot file would. */
    public GatewayProcess withPostBoot(Path script) throws IOException {
        Files.readAllLines(script).stream().filter(line -> !line.isBlank() && !line.startsWith("#")).forEach(postBootCommands::add);
        return this;
    }

    public GatewayProcess withServerOptions(List<String> options) {
        serverOptions.addAll(options);
        return this;
    }

    public GatewayProcess withJvmOptions(List<String> options) {
        jvmOptions.addAll(options);
        return this;
    }

    public GatewayProcess start() throws IOException {
        Files.createDirectories(log.getParent());
        // Micro's root folder keeps the last deployment; reused after a stop it fails to redeploy
        // ("JNDI lookup failed for java:app/jdbc/toolgate"). Nothing of ours lives there: start clean.
        LocalStack.deleteRecursively(runtime.resolve("instance-" + port));
        List<String> command = new ArrayList<>(javaCommand);
        command.add(HEAP); // first, so that a heap option among jvmOptions (an experiment's) is the one in force
        command.addAll(jvmOptions);
        // resource validation off: it looks the journal's @DataSourceDefinition up before the application defines it,
        // and on a loaded host now and then fails the deployment for it (a datasource really missing still fails it).
        // --nohazelcast: one gateway per process needs no data grid; its EJB timers are non-persistent.
        // shutdowngrace: how long a SIGTERM'd Micro lets the application finish its calls (edge.Stopping)
        // the JSON-P provider named: Payara's JSON log formatter otherwise scans the class path for one on every line
        // (platform.JsonLogProvider says why)
        command.addAll(List.of("-Ddeployment.resource.validation=false", "-Dfish.payara.shutdowngrace=" + drain.toMillis(),
                "-Djakarta.json.provider=org.eclipse.parsson.JsonProviderImpl",
                "-jar", runtime.resolve("payara-micro.jar").toString(),
                "--deploy", runtime.resolve("ROOT.war").toString(),
                "--port", Integer.toString(port),
                "--rootdir", runtime.resolve("instance-" + port).toString(),
                "--postbootcommandfile", postBootCommands.isEmpty() ? postBootFile(runtime).toString()
                        : Files.writeString(runtime.resolve("micro-postboot-" + port + ".txt"), POST_BOOT + String.join("\n", postBootCommands) + "\n").toString(),
                "--nohazelcast", "--disablephonehome"));
        command.addAll(serverOptions);
        for (Path war : alongside) {
            command.addAll(List.of("--deploy", war.toString()));
        }
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        logStart = Files.size(log.toFile().exists() ? log : Files.createFile(log));
        process = builder.start();
        ROOT_OWNERS.put(port, this);
        return this;
    }

    /**
     * Waits until the application answers its own API (a problem+json 404 for a key nobody used). A server given up on
     * is stopped before this throws: its caller keeps no handle to stop it with.
     */
    public GatewayProcess awaitReady() throws IOException {
        try {
            return awaitAnswer();
        } catch (IOException | RuntimeException gaveUp) {
            try {
                kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw gaveUp;
        }
    }

    private GatewayProcess awaitAnswer() throws IOException {
        // HTTP/1.1: the JDK client's default asks a plain listener to upgrade to HTTP/2 (h2c), and Micro's Grizzly can
        // deadlock two of its workers when such a request is given up mid-answer (a probe that timed out on a cold
        // start; Http2Session.deregisterStream against DefaultOutputSink.terminate): the server then never answers again
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest probe = HttpRequest.newBuilder(URI.create(baseUrl() + "/api/v1/operations/readiness-probe"))
                .timeout(Duration.ofSeconds(5)).build();
        Instant waitingSince = Instant.now();
        while (true) {
            if (!process.isAlive()) {
                throw new IOException("the gateway exited with " + process.exitValue() + "; see " + log);
            }
            try {
                HttpResponse<String> answer = http.send(probe, HttpResponse.BodyHandlers.ofString());
                if (answer.headers().firstValue("Content-Type").orElse("").contains("problem+json")) {
                    return this;
                }
            } catch (IOException notYet) {
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for the gateway", e);
            }
            // a log that proves the deployment failed ends the wait now
            String started = logSinceStart();
            if (StartLog.of(started) == StartLog.NOT_DEPLOYED) {
                throw new IOException("Payara Micro is up but the gateway did not deploy; see " + log
                        + String.join("\n  ", StartLog.why(started, 8)).transform(why -> why.isEmpty() ? "" : ":\n  " + why));
            }
            Optional<String> exhausted = READY.exhausted(process, waitingSince);
            if (exhausted.isPresent()) {
                throw new IOException("the gateway did not answer after " + exhausted.get() + "; see " + log);
            }
            // short: paid on every start of every suite that owns a gateway; the log check reads only what this start wrote
            LocalStack.pause(Duration.ofMillis(100));
        }
    }

    private String logSinceStart() throws IOException {
        try (java.io.RandomAccessFile file = new java.io.RandomAccessFile(log.toFile(), "r")) {
            long from = Math.min(logStart, file.length());
            byte[] since = new byte[(int) (file.length() - from)];
            file.seek(from);
            file.readFully(since);
            return new String(since, java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    /** The gateway process's peak resident set (VmHWM), in KiB: what it really took from the machine. */
    public long peakResidentKilobytes() throws IOException {
        return status("VmHWM:");
    }

    private long status(String field) throws IOException {
        return Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status")).stream()
                .filter(line -> line.startsWith(field))
                .map(line -> Long.parseLong(line.replaceAll("[^0-9]", "")))
                .findFirst().orElse(-1L);
    }

    public long pid() {
        return process.pid();
    }

    /** The gateway process's resident set now (VmRSS), in KiB. */
    public long residentKilobytes() throws IOException {
        return status("VmRSS:");
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** SIGKILL: no shutdown hooks, no chance to record anything — a crash. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
        removeRoot();
    }

    /** SIGTERM and wait: an orderly shutdown. */
    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            process.waitFor();
        }
        removeRoot();
    }

    /**
     * Micro unpacks itself and the application into its root folder, about 110 MiB a start: a suite that starts dozens
     * of gateways on different ports would otherwise leave gigabytes behind, enough to fill a CI machine's disk. Nothing
     * of ours lives there, and the next start on this port begins clean anyway.
     */
    private void removeRoot() {
        if (process != null && !process.isAlive() && ROOT_OWNERS.remove(port, this)) {
            try {
                LocalStack.deleteRecursively(runtime.resolve("instance-" + port));
            } catch (IOException leftBehind) {
                // disk, not correctness: the next start on this port removes it or fails loudly
            }
        }
    }
}

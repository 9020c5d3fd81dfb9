package dev.toolgate.it.support;

import dev.toolgate.launcher.LocalStack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A WildFly standalone server driven as the README's Deploy section tells a user to: start
 * {@code standalone-full.xml} (EJB, batch and MicroProfile Config) with the gateway's settings in its
 * environment, deploy the JDBC driver, create the journal's datasource from
 * {@code deploy/wildfly/journal-datasource.cli}, deploy the EAR, all with {@code jboss-cli}. Its own
 * copy of {@code standalone/}, on a free port offset.
 */
public final class WildFlyServer implements AppServer {

    private static final Duration BOOT_TIMEOUT = Duration.ofMinutes(4);
    private static final String SHORT_LIVED_JVM = String.join(" ", LocalStack.SHORT_LIVED_JVM);

    private final Path home;
    private final Path base;
    private final Path log;
    private final int offset;
    private Process process;

    private WildFlyServer(Path home, Path base, int offset) {
        this.home = home;
        this.base = base;
        this.log = base.resolve("server-console.log");
        this.offset = offset;
    }

    public static WildFlyServer start(Path home, Path base, Map<String, String> environment) throws Exception {
        SuiteTimings.started("WildFly");
        LocalStack.deleteRecursively(base);
        copy(home.resolve("standalone"), base);
        WildFlyServer server = new WildFlyServer(home, base, freeOffset());
        List<String> command = List.of(home.resolve("bin/standalone.sh").toString(), "-c", "standalone-full.xml",
                "-Djboss.server.base.dir=" + base, "-Djboss.socket.binding.port-offset=" + server.offset);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(server.log.toFile()));
        builder.environment().putAll(environment);
        // the server's JVM for a suite's minutes (LocalStack.SHORT_LIVED_JVM): standalone.conf puts JBOSS_JAVA_SIZING
        // into its default JAVA_OPTS, which setting JAVA_OPTS itself would replace whole
        builder.environment().put("JBOSS_JAVA_SIZING", "-Xms64m -Xmx512m " + SHORT_LIVED_JVM);
        server.process = builder.start();
        server.awaitRunning();
        return server;
    }

    /** Deploys {@code artifact} under its file name (the EAR; the JDBC driver, which WildFly registers as a driver by that name). */
    public void deploy(Path artifact) throws Exception {
        cli("--command=" + deployCommand(artifact));
    }

    /** Runs the jboss-cli script {@code file}. */
    public void run(Path file) throws Exception {
        cli("--file=" + file);
    }

    /**
     * The steps in order in one jboss-cli session, as a user would paste them into one: each step a script
     * ({@link #script}, its lines as written) or a command ({@link #deployCommand}). Each jboss-cli run is a JVM of its
     * own, 2-3 s of CPU on 2 cores: one for all the steps instead of one each. A failing command stops the session
     * and fails this, as it would fail a run of its own.
     */
    public void runInOneSession(List<String> steps) throws Exception {
        Path session = Files.createTempFile(base, "session", ".cli");
        Files.writeString(session, String.join("\n", steps) + "\n");
        cli("--file=" + session);
    }

    /** The jboss-cli script {@code file} as a step of {@link #runInOneSession}. */
    public static String script(Path file) throws IOException {
        return Files.readString(file);
    }

    /** {@link #deploy}'s command, as a step of {@link #runInOneSession}. */
    public static String deployCommand(Path artifact) {
        return "deploy " + artifact + " --name=" + artifact.getFileName();
    }

    /** The server's server.log (not the console, which keeps the plain format). */
    @Override
    public Path serverLog() {
        return base.resolve("log").resolve("server.log");
    }

    @Override
    public String baseUrl() {
        return "http://127.0.0.1:" + (8080 + offset);
    }

    /**
     * The suite is done with it: the server's JVM and its script are ended at once (SIGKILL, as
     * {@link TestStack#discard} ends a gateway), not shut down through a jboss-cli JVM of 2-3 s of CPU; the next start
     * copies a fresh base.
     */
    @Override
    public void close() throws Exception {
        Credentials.forget(baseUrl());
        if (process != null && process.isAlive()) {
            List<ProcessHandle> java = process.descendants().toList();
            java.forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            for (ProcessHandle each : java) {
                each.onExit().get(60, TimeUnit.SECONDS);
            }
            process.waitFor(60, TimeUnit.SECONDS);
        }
    }

    /**
     * Until the server says it is running. The boot's last line ("WFLYSRV0025: … started in", or WFLYSRV0026 with
     * errors) is waited for in its console log first, read every 200 ms: asking jboss-cli each second instead started
     * a JVM of 2-3 s of CPU each time, on the 2 cores the booting server needed. Then jboss-cli confirms the state.
     */
    private void awaitRunning() throws Exception {
        Instant deadline = Instant.now().plus(BOOT_TIMEOUT);
        while (Instant.now().isBefore(deadline) && process.isAlive() && !booted()) {
            Thread.sleep(200);
        }
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IOException("WildFly exited with " + process.exitValue() + "; see " + log);
            }
            try {
                if (cli("--command=:read-attribute(name=server-state)").contains("\"running\"")) {
                    return;
                }
            } catch (IOException notYet) {
                // the management interface is not up yet
            }
            Thread.sleep(1000);
        }
        throw new IOException("WildFly was not running after " + BOOT_TIMEOUT + "; see " + log);
    }

    private boolean booted() throws IOException {
        if (!Files.exists(log)) {
            return false;
        }
        String console = Files.readString(log, java.nio.charset.StandardCharsets.ISO_8859_1);
        return console.contains("WFLYSRV0025") || console.contains("WFLYSRV0026");
    }

    /** One jboss-cli run against this server: {@code --command=…} or {@code --file=…}. */
    private String cli(String operation) throws Exception {
        Path out = Files.createTempFile(base, "cli", ".out");
        ProcessBuilder builder = new ProcessBuilder(home.resolve("bin/jboss-cli.sh").toString(), "--connect",
                "--controller=127.0.0.1:" + (9990 + offset), operation)
                .redirectErrorStream(true).redirectOutput(out.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        // the client's JVM (jboss-cli.sh reads JAVA_OPTS): a run of a few seconds that loads many classes and runs little
        // code gains nothing from C2 but its compile threads
        builder.environment().put("JAVA_OPTS", SHORT_LIVED_JVM);
        Process cli = builder.start();
        if (!cli.waitFor(5, TimeUnit.MINUTES)) {
            cli.destroyForcibly();
            throw new IOException("jboss-cli " + operation + " timed out");
        }
        String text = Files.readString(out);
        Files.writeString(log, "\n[jboss-cli " + operation + "]\n" + text, java.nio.file.StandardOpenOption.APPEND);
        if (cli.exitValue() != 0) {
            throw new IOException("jboss-cli " + operation + " failed: " + text);
        }
        return text;
    }

    private static void copy(Path from, Path to) throws IOException {
        try (var paths = Files.walk(from)) {
            for (Path source : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        }
    }

    /** A port offset under which WildFly's HTTP, HTTPS and management ports are all free. */
    private static int freeOffset() throws IOException {
        for (int offset = 1000; offset < 20000; offset += 100) {
            if (Ports.free(8080 + offset) && Ports.free(8443 + offset) && Ports.free(9990 + offset) && Ports.free(9993 + offset)) {
                return offset;
            }
        }
        throw new IOException("no free WildFly port offset");
    }
}

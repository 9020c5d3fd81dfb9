package dev.toolgate.it.support;

import dev.toolgate.launcher.LocalStack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Payara Server 6 domain driven by {@code asadmin}, exactly as the README's Deploy section tells a
 * user to: create a domain, put the JDBC driver in its lib/, start it with the gateway's settings in
 * its environment, create the journal's pool from {@code deploy/payara/journal-pool.asadmin}, deploy the EAR.
 */
public final class PayaraServer implements AppServer {

    private static final String DOMAIN = "toolgate-it";

    private final Path home;
    private final Path domains;
    private final Path log;
    private final int portBase;

    private PayaraServer(Path home, Path domains, int portBase) {
        this.home = home;
        this.domains = domains;
        this.log = domains.resolve("asadmin.log");
        this.portBase = portBase;
    }

    /**
     * Creates a fresh domain on a free block of ports, copies {@code jdbcDriver} into its lib/ (where a
     * server-managed pool finds it) and starts it with {@code environment}.
     */
    public static PayaraServer start(Path home, Path domains, Path jdbcDriver, Map<String, String> environment) throws Exception {
        SuiteTimings.started("a Payara Server domain");
        LocalStack.deleteRecursively(domains.resolve(DOMAIN)); // a domain left by an earlier run of this test
        Files.createDirectories(domains);
        PayaraServer server = new PayaraServer(home, domains, freePortBase());
        server.asadmin(Map.of(), "create-domain", "--nopassword=true", "--portbase", Integer.toString(server.portBase),
                "--domaindir", domains.toString(), DOMAIN);
        Files.copy(jdbcDriver, domains.resolve(DOMAIN).resolve("lib").resolve(jdbcDriver.getFileName()));
        shortLived(domains.resolve(DOMAIN).resolve("config").resolve("domain.xml"));
        server.asadmin(environment, "start-domain", "--domaindir", domains.toString(), DOMAIN);
        return server;
    }

    /**
     * The server's JVM for a suite's minutes ({@link LocalStack#SHORT_LIVED_JVM}), written into the new domain's
     * server-config before its first start (asadmin's create-jvm-options needs the server running, and a restart).
     * The domain as created names no collector and no compiler, so nothing conflicts.
     */
    private static void shortLived(Path domainXml) throws IOException {
        String domain = Files.readString(domainXml);
        String first = "<jvm-options>-server</jvm-options>"; // server-config's java-config comes first in the file
        if (!domain.contains(first)) {
            throw new IllegalStateException("no " + first + " in " + domainXml + " to add the JVM's options after");
        }
        StringBuilder options = new StringBuilder(first);
        LocalStack.SHORT_LIVED_JVM.forEach(option -> options.append("<jvm-options>").append(option).append("</jvm-options>"));
        Files.writeString(domainXml, domain.replaceFirst(java.util.regex.Pattern.quote(first), options.toString()));
    }

    /** Runs the asadmin commands in {@code file}, one per line ({@code asadmin multimode --file}). */
    public void run(Path file) throws Exception {
        asadmin(Map.of(), "--port", Integer.toString(adminPort()), "multimode", "--file", file.toString());
    }

    public void deploy(Path ear) throws Exception {
        asadmin(Map.of(), "--port", Integer.toString(adminPort()), "deploy", "--name", "toolgate", ear.toString());
    }

    /**
     * The steps in order in one {@code asadmin multimode} run: each step a file's commands ({@link #script}) or a
     * command ({@link #deployCommand}). Each asadmin run is a JVM of its own, seconds of CPU on 2 cores: one for all
     * the steps instead of one each. A failing command fails this, as it would fail a run of its own.
     */
    public void runInOneSession(List<String> steps) throws Exception {
        Path session = Files.createTempFile(domains, "session", ".asadmin");
        Files.writeString(session, String.join("\n", steps) + "\n");
        run(session);
    }

    /** The asadmin commands in {@code file} as a step of {@link #runInOneSession}. */
    public static String script(Path file) throws IOException {
        return Files.readString(file);
    }

    /** {@link #deploy}'s command, as a step of {@link #runInOneSession}. */
    public static String deployCommand(Path ear) {
        return "deploy --name toolgate " + ear;
    }

    /** The domain's server.log. */
    @Override
    public Path serverLog() {
        return domains.resolve(DOMAIN).resolve("logs").resolve("server.log");
    }

    @Override
    public String baseUrl() {
        return "http://127.0.0.1:" + (portBase + 80); // asadmin's portbase layout: HTTP listener at base + 80
    }

    private int adminPort() {
        return portBase + 48;
    }

    /**
     * The suite is done with it: the domain's JVM is ended at once (SIGKILL, as {@link TestStack#discard} ends a gateway),
     * not stopped by an asadmin JVM and an undeployment that nothing looks at; the next start makes a fresh domain. Without
     * its pid file, asadmin stops it.
     */
    @Override
    public void close() throws Exception {
        Credentials.forget(baseUrl());
        Path pid = domains.resolve(DOMAIN).resolve("config").resolve("pid");
        java.util.Optional<ProcessHandle> domain = Files.exists(pid)
                ? ProcessHandle.of(Long.parseLong(Files.readString(pid).strip())) : java.util.Optional.empty();
        if (domain.isPresent()) {
            domain.get().destroyForcibly();
            domain.get().onExit().get(60, TimeUnit.SECONDS);
        } else {
            asadmin(Map.of(), "stop-domain", "--domaindir", domains.toString(), DOMAIN);
        }
    }

    private void asadmin(Map<String, String> environment, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/asadmin").toString()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment().putAll(environment);
        builder.environment().put("AS_EXTRA_JAVA_OPTS", String.join(" ", LocalStack.SHORT_LIVED_JVM)); // the client's own JVM
        Process asadmin = builder.start();
        if (!asadmin.waitFor(5, TimeUnit.MINUTES) || asadmin.exitValue() != 0) {
            asadmin.destroyForcibly();
            throw new IOException("asadmin " + String.join(" ", arguments) + " failed; see " + log);
        }
    }

    /** A base whose next 100 ports are free: a domain takes several listeners above its base. */
    private static int freePortBase() throws IOException {
        for (int base = 24000; base < 40000; base += 1000) {
            if (free(base)) {
                return base;
            }
        }
        throw new IOException("no free block of 100 ports between 24000 and 40000");
    }

    private static boolean free(int base) {
        for (int port = base; port < base + 100; port++) {
            if (!Ports.free(port)) {
                return false;
            }
        }
        return true;
    }
}

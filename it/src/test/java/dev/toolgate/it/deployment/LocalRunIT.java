package dev.toolgate.it.deployment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Browser;
import dev.toolgate.it.support.Lane;
import dev.toolgate.it.support.SuiteTimings;
import dev.toolgate.launcher.DemoWork;
import dev.toolgate.launcher.LocalRun;
import dev.toolgate.launcher.LocalStack;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.Select;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The local run as a newcomer uses it: the README's run command, started as a process of its own (the launcher's
 * build, then PostgreSQL, the simulators, the gateway and Keycloak); the front page; the printed console address;
 * the demo approver signing in in Chromium and approving the demo refund; the demo agent's next call with the same
 * key then succeeding. Screenshots in target/screenshots (local-run-*). Ports are free ones, its data a folder
 * under target/, so a developer's own local run is untouched.
 */
@Lane(3)
class LocalRunIT {

    /** The build, the gateway, and Keycloak's first start (it builds itself): minutes on 2 cores. */
    private static final Duration CONSOLE_READY = Duration.ofMinutes(12);
    private static final Pattern PRINCIPAL = Pattern.compile("^ {4}(demo-[a-z]+) +(tg_\\S+)$");
    private static final Pattern PERSON = Pattern.compile("^ {4}(approver|operator|auditor) +(\\S+)$");
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void aPersonSignsInApprovesTheDemoRefundAndTheAgentsNextCallSucceeds() throws Exception {
        Path repository = Path.of("").toAbsolutePath().getParent();
        Path home = Path.of("target", "local-run").toAbsolutePath();
        LocalStack.deleteRecursively(home);
        Files.createDirectories(home);
        int port = LocalStack.freePort();
        List<String> command = new ArrayList<>(List.of("mvn", "-B", "-ntp", "-P", "run", "-pl", "launcher", "-am", "package", "-DskipTests",
                "-Dtoolgate.port=" + port, "-Dtoolgate.simulator.port=" + LocalStack.freePort(),
                "-Dtoolgate.db.port=" + LocalStack.freePort(), "-Dtoolgate.keycloak.port=" + LocalStack.freePort(),
                "-Dtoolgate.home=" + home));
        String keycloakJava = System.getProperty("toolgate.keycloak.java-home", "");
        if (!keycloakJava.isBlank()) {
            command.add("-Dtoolgate.keycloak.java-home=" + keycloakJava);
        }
        SuiteTimings.started("the local run (mvn -P run)");
        ProcessBuilder builder = new ProcessBuilder(command).directory(repository.toFile()).redirectErrorStream(true);
        // Maven's own JVM, for a build of a minute (the run's servers choose their own options): C1 only, as the
        // suites' other short-lived JVMs
        builder.environment().merge("MAVEN_OPTS", String.join(" ", LocalStack.SHORT_LIVED_JVM), (mine, ours) -> mine + " " + ours);
        Process run = builder.start();
        Path output = home.resolve("run-output.txt");
        LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> copy(run, output, lines), "local-run-output");
        reader.setDaemon(true);
        reader.start();
        Map<String, String> tokens = new ConcurrentHashMap<>();
        Map<String, String> passwords = new ConcurrentHashMap<>();
        try {
            String console = awaitConsole(run, lines, tokens, passwords, output);
            String base = "http://127.0.0.1:" + port;
            assertEquals(base + "/console/", console);

            HttpResponse<String> front = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, front.statusCode(), front.body());
            for (String link : List.of("/api/openapi.yaml", "/mcp", "/console/", "/api/health/ready", "/api/metrics")) {
                assertTrue(front.body().contains(link), link + " on the front page: " + front.body());
            }

            String key = DemoWork.AWAITING_APPROVAL;
            try (Browser approver = new Browser()) {
                approver.open(console).signIn("approver", passwords.get("approver"));
                approver.waitFor(By.id("signed-in-as"));
                approver.screenshot("local-run-1-signed-in");
                approver.open(base + "/console/approvals");
                approver.waitFor(By.linkText("Review " + key)).click();
                approver.screenshot("local-run-2-the-demo-refund");
                new Select(approver.driver().findElement(By.id("validity"))).selectByVisibleText("4 hours");
                approver.driver().findElement(By.id("approve-button")).click();
                assertTrue(approver.waitFor(By.id("flash")).getText().startsWith("Approved " + key), approver.currentUrl());
                approver.screenshot("local-run-3-approved");
            }

            // the demo agent's next call: the same key and payload, as it sent them
            JsonObject record = json(HTTP.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/operations/"
                    + URLEncoder.encode(key, StandardCharsets.UTF_8))).header("Authorization", "Bearer " + tokens.get("demo-agent")).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            assertEquals(List.of(), record.getJsonArray("withheld_fields"), record.toString());
            String body = Json.createObjectBuilder().add("operation", record.getString("operation")).add("target", record.getString("target"))
                    .add("payload", record.getJsonObject("payload")).build().toString();
            HttpResponse<String> sent = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/operations"))
                    .header("Authorization", "Bearer " + tokens.get("demo-agent")).header("Idempotency-Key", key)
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(201, sent.statusCode(), sent.body());
            assertEquals("succeeded", json(sent.body()).getString("status"));
        } finally {
            stop(run);
        }
        // what the run printed for people is printed only: no log keeps a token or a password, nor the realm file
        for (String log : List.of("gateway.log", "simulators.log", "keycloak.log")) {
            String written = Files.readString(home.resolve(log));
            for (String secret : concat(tokens.values(), passwords.values())) {
                assertTrue(!written.contains(secret), log + " carries a secret the run printed");
            }
        }
        try (var realms = Files.walk(repository.resolve("launcher/target"), 6)) {
            assertEquals(List.of(), realms.filter(path -> path.endsWith("data/import/toolgate-realm.json")).toList(),
                    "the realm with the passwords is removed once imported");
        }
    }

    private static List<String> concat(java.util.Collection<String> a, java.util.Collection<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** Reads the run's output until the console's address, keeping the printed tokens and passwords. */
    private static String awaitConsole(Process run, LinkedBlockingQueue<String> lines, Map<String, String> tokens,
                                       Map<String, String> passwords, Path output) throws Exception {
        Instant deadline = Instant.now().plus(CONSOLE_READY);
        while (Instant.now().isBefore(deadline)) {
            String line = lines.poll(1, TimeUnit.SECONDS);
            if (line == null) {
                if (!run.isAlive() && lines.isEmpty()) {
                    throw new AssertionError("the local run ended with " + run.exitValue() + " before the console was ready; see " + output);
                }
                continue;
            }
            Matcher principal = PRINCIPAL.matcher(line);
            if (principal.matches()) {
                tokens.put(principal.group(1), principal.group(2));
            }
            Matcher person = PERSON.matcher(line);
            if (person.matches()) {
                passwords.put(person.group(1), person.group(2));
            }
            if (line.startsWith(LocalRun.CONSOLE_READY)) {
                String console = line.substring(LocalRun.CONSOLE_READY.length()).strip();
                Instant people = Instant.now().plusSeconds(10); // the people are printed after the address
                while (passwords.size() < 3 && Instant.now().isBefore(people)) {
                    String next = lines.poll(1, TimeUnit.SECONDS);
                    Matcher more = next == null ? null : PERSON.matcher(next);
                    if (more != null && more.matches()) {
                        passwords.put(more.group(1), more.group(2));
                    }
                }
                assertEquals(5, tokens.size(), "demo principals printed: " + tokens.keySet());
                assertEquals(3, passwords.size(), "demo people printed: " + passwords.keySet());
                return console;
            }
        }
        throw new AssertionError("no console address within " + CONSOLE_READY + "; see " + output);
    }

    private static void copy(Process run, Path output, LinkedBlockingQueue<String> lines) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(run.getInputStream(), StandardCharsets.UTF_8));
             var out = Files.newBufferedWriter(output, StandardCharsets.UTF_8)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                out.write(line);
                out.newLine();
                out.flush();
                lines.add(line);
            }
        } catch (IOException e) {
            // the run ended
        }
    }

    /**
     * Ctrl+C as a person would: SIGTERM to the launcher's JVM (the run's shutdown stops the gateway, the simulators,
     * Keycloak and PostgreSQL), then to Maven. Maven's own SIGTERM would not reach the launcher it forked.
     */
    private static void stop(Process run) throws InterruptedException {
        List<ProcessHandle> launchers = run.descendants()
                .filter(p -> p.info().arguments().map(a -> String.join(" ", a).contains(LocalRun.class.getName())).orElse(false)).toList();
        launchers.forEach(ProcessHandle::destroy);
        for (ProcessHandle launcher : launchers) {
            launcher.onExit().completeOnTimeout(launcher, 60, TimeUnit.SECONDS).join();
        }
        List<ProcessHandle> rest = run.descendants().toList();
        run.destroy();
        if (!run.waitFor(30, TimeUnit.SECONDS)) {
            rest.forEach(ProcessHandle::destroyForcibly);
            run.destroyForcibly().waitFor();
        }
    }

    private static JsonObject json(String body) {
        return Json.createReader(new StringReader(body)).readObject();
    }
}

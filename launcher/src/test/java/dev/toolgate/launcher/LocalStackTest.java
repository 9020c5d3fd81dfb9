package dev.toolgate.launcher;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.simulator.Simulators;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The local run refuses a port something else already listens on, rather than saying "ready" over it, and subscribes
 * the gateway to the simulators' notifications through the simulators' own APIs.
 */
class LocalStackTest {

    @Test
    void refusesAPortSomethingElseListensOnNamingTheSettingToChange() throws IOException {
        try (ServerSocket other = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            IOException refused = assertThrows(IOException.class, () -> LocalStack.requireFree(other.getLocalPort(), "toolgate.simulator.port"));
            assertTrue(refused.getMessage().contains("-Dtoolgate.simulator.port="), refused.getMessage());
        }
    }

    @Test
    void takesAFreePort() throws IOException {
        int free;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            free = probe.getLocalPort();
        }
        assertDoesNotThrow(() -> LocalStack.requireFree(free, "toolgate.port"));
    }

    @Test
    void handsOutFreePortsOutsideTheEphemeralRangeNeverTwice() throws IOException {
        java.util.Set<Integer> ports = new java.util.HashSet<>();
        for (int i = 0; i < 50; i++) {
            int port = LocalStack.freePort();
            assertTrue(port >= LocalStack.FREE_PORTS_FROM && port < LocalStack.FREE_PORTS_TO, "port " + port);
            assertTrue(ports.add(port), "port " + port + " handed out twice");
            assertDoesNotThrow(() -> LocalStack.requireFree(port, "toolgate.port"));
        }
    }

    @Test
    void subscribesTheGatewaysNotificationEndpointsThroughTheSimulatorsApis() throws Exception {
        try (Simulators simulators = Simulators.start(0, Map.of())) {
            LocalStack.subscribeNotifications(simulators.baseUrl(), 8080);

            HttpClient http = HttpClient.newHttpClient();
            String credentials = Simulators.YOOKASSA_SHOP_ID + ":" + Simulators.YOOKASSA_SECRET_KEY;
            HttpResponse<String> webhooks = http.send(HttpRequest.newBuilder(URI.create(Simulators.yooKassaUrl(simulators.baseUrl())
                    + "webhooks")).header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                    credentials.getBytes(StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString());
            JsonArray items = Json.createReader(new StringReader(webhooks.body())).readObject().getJsonArray("items");
            assertEquals(LocalStack.YOOKASSA_EVENTS, items.getValuesAs(JsonObject.class).stream().map(i -> i.getString("event")).toList());
            assertTrue(items.getValuesAs(JsonObject.class).stream()
                    .allMatch(i -> i.getString("url").equals("http://127.0.0.1:8080/notifications/yookassa")), webhooks.body());

            HttpResponse<String> handlers = http.send(HttpRequest.newBuilder(URI.create(Simulators.bitrix24Url(simulators.baseUrl())
                    + "event.get")).POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
            JsonArray bound = Json.createReader(new StringReader(handlers.body())).readObject().getJsonArray("result");
            assertEquals(LocalStack.BITRIX24_EVENTS, bound.getValuesAs(JsonObject.class).stream().map(b -> b.getString("event")).toList());
            assertTrue(bound.getValuesAs(JsonObject.class).stream()
                    .allMatch(b -> b.getString("handler").equals("http://127.0.0.1:8080/notifications/bitrix24")), handlers.body());
        }
    }

    @Test
    void simulatorsHeldOffTheCpuLongerThanTheirCpuPatienceAreStillWaitedFor() throws Exception {
        int port = LocalStack.freePort();
        Path log = Files.createTempFile("simulators-", ".log");
        Process simulators = new ProcessBuilder(LocalStack.simulatorsCommand(port)).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        try {
            // stopped before it can listen, for longer by the clock than the CPU it is allowed: a start on cores that
            // other work keeps, at the extreme; the start itself takes about 1.3 s of CPU
            signal("STOP", simulators);
            Thread resume = new Thread(() -> {
                LocalStack.pause(Duration.ofSeconds(7));
                signal("CONT", simulators);
            });
            resume.start();
            Instant from = Instant.now();
            LocalStack.awaitPort(port, simulators, new StartPatience(Duration.ofSeconds(5), Duration.ofSeconds(90)), log);
            assertTrue(Duration.between(from, Instant.now()).compareTo(Duration.ofSeconds(7)) >= 0, "it listened once resumed");
            resume.join();
        } finally {
            simulators.destroyForcibly().waitFor();
            Files.deleteIfExists(log);
        }
    }

    @Test
    void aProcessThatHasHadItsCpuWithoutListeningIsStoppedAndItsLogQuoted() throws Exception {
        IOException gaveUp = givenUpOn("echo loading the whole world first; while :; do :; done",
                new StartPatience(Duration.ofSeconds(1), Duration.ofSeconds(90)));
        assertTrue(gaveUp.getMessage().contains("it had its CPU and was not ready"), gaveUp.getMessage());
        assertTrue(gaveUp.getMessage().contains("loading the whole world first"), "the log's end: " + gaveUp.getMessage());
    }

    @Test
    void aProcessThatExitsBeforeListeningFailsTheWaitAtOnce() throws Exception {
        IOException gaveUp = givenUpOn("echo no such class; exit 3", new StartPatience(Duration.ofSeconds(30), Duration.ofMinutes(10)));
        assertTrue(gaveUp.getMessage().startsWith("process exited with 3"), gaveUp.getMessage());
        assertTrue(gaveUp.getMessage().contains("no such class"), gaveUp.getMessage());
    }

    /** How {@code awaitPort} gives up on a shell {@code script} that never listens; the process is gone by then. */
    private static IOException givenUpOn(String script, StartPatience patience) throws Exception {
        int port = LocalStack.freePort();
        Path log = Files.createTempFile("start-", ".log");
        Process process = new ProcessBuilder("sh", "-c", script).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            IOException gaveUp = assertThrows(IOException.class, () -> LocalStack.awaitPort(port, process, patience, log));
            assertTrue(process.waitFor(10, TimeUnit.SECONDS), "a process given up on is stopped: " + gaveUp.getMessage());
            return gaveUp;
        } finally {
            process.destroyForcibly().waitFor();
            Files.deleteIfExists(log);
        }
    }

    private static void signal(String signal, Process process) {
        try {
            new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start().waitFor();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package dev.toolgate.it.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.it.support.TestStack;
import dev.toolgate.simulator.SimulatorClient;
import dev.toolgate.simulator.Simulators;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Third-party clients, unchanged, against the simulators over HTTPS: Bitrix24's own JavaScript SDK and a
 * YooKassa client from npm (src/test/node). If a real client cannot talk to a simulator, the simulator
 * does not follow the contract. Needs node and npm on the PATH; without them this fails, it never skips.
 */
class ClientSdksIT {

    private static final Path SOURCES = Path.of("src", "test", "node");
    private static final Path WORK = Path.of("target", "node-clients");
    private static final List<String> FILES = List.of("package.json", "package-lock.json", "sdk-clients.mjs");

    private final SimulatorClient targets = TestStack.targets();

    @Test
    void bitrix24SdkAndYooKassaClientCreateAndReadBackOverHttps() throws Exception {
        Simulators simulators = TestStack.simulators();
        String key = "sdk-" + UUID.randomUUID();
        install();
        JsonObject result = run(Map.of(
                "NODE_EXTRA_CA_CERTS", simulators.tls().caBundle().toString(),
                "TOOLGATE_KEY", key,
                "TOOLGATE_B24_WEBHOOK", simulators.httpsOrigin("bitrix24") + "/rest/" + Simulators.BITRIX24_USER + "/"
                        + Simulators.BITRIX24_SECRET + "/",
                "TOOLGATE_YOOKASSA_ENDPOINT", simulators.httpsOrigin("yookassa") + "/v3",
                "TOOLGATE_YOOKASSA_SHOP_ID", Simulators.YOOKASSA_SHOP_ID,
                "TOOLGATE_YOOKASSA_SECRET_KEY", Simulators.YOOKASSA_SECRET_KEY));

        JsonObject deal = result.getJsonObject("deal");
        assertEquals(key, deal.getString("originId"), "the SDK read back the deal it added");
        assertEquals(List.of(deal.getString("id")), targets.effects("bitrix24", key));
        JsonObject payment = result.getJsonObject("payment");
        assertEquals("1500.00", payment.getString("amount"));
        assertEquals(List.of(payment.getString("id")), targets.effects("yookassa", key));
    }

    /** {@code npm ci} into target/: the lock file pins every package, so a fresh machine gets the same tree. */
    private static void install() throws IOException, InterruptedException {
        Files.createDirectories(WORK);
        for (String file : FILES) {
            Files.copy(SOURCES.resolve(file), WORK.resolve(file), StandardCopyOption.REPLACE_EXISTING);
        }
        exec(List.of("npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"), Map.of(), 300);
    }

    private static JsonObject run(Map<String, String> env) throws IOException, InterruptedException {
        String output = exec(List.of("node", "sdk-clients.mjs"), env, 60);
        String last = output.strip().substring(output.strip().lastIndexOf('\n') + 1);
        return Json.createReader(new StringReader(last)).readObject();
    }

    /** Runs {@code command} in the work folder; a missing program throws, so the test fails rather than skips. */
    private static String exec(List<String> command, Map<String, String> env, int timeoutSeconds)
            throws IOException, InterruptedException {
        Path log = WORK.resolve(command.get(0) + ".log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(WORK.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(command + " did not finish in " + timeoutSeconds + " s; see " + log);
        }
        String text = Files.readString(log, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), command + " failed:\n" + text);
        return text;
    }
}

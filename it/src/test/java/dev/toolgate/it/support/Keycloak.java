package dev.toolgate.it.support;

import dev.toolgate.launcher.LocalKeycloak;
import dev.toolgate.launcher.LocalStack;
import jakarta.json.Json;
import jakarta.json.JsonObject;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A real Keycloak for the console suites, people signing in through OpenID Connect as they will in production:
 * the distribution from Maven Central that the build unpacks ({@code keycloak.home}), in dev mode on a free
 * loopback port, its realm {@code toolgate} imported from {@code src/test/resources/keycloak/toolgate-realm.json}
 * into a database of its own that each {@link #launched() launch} starts empty (H2 in a file under the unpack, so
 * nothing of an earlier run is left), on Java 25 ({@link KeycloakJava}). Its log is target/keycloak.log.
 *
 * <p>One per test JVM, shared by every suite that signs people in: a start costs 20–40 s, and nothing a suite does
 * changes the realm (no suite writes to it; each browser has a profile of its own, so no suite meets another's
 * session). {@link #start()} starts it on first use; {@link #close()} leaves it running for the next suite; it
 * stops as the test JVM exits. In a run that holds ConsoleIT its first use is {@code ConsoleStack.Ahead}'s, minutes
 * before the first suite that signs people in: its first start, which builds the server, overlaps the suites before
 * that one, and not the run's busiest first minute, when the first gateways boot.
 */
public final class Keycloak implements AutoCloseable {

    public static final String REALM = "toolgate";
    public static final String CLIENT_ID = "toolgate-console";
    public static final String CLIENT_SECRET = "toolgate-console-secret";
    /** The first start of a fresh unpack builds (augments) the server before starting it: 40–80 s on 2 loaded cores. */
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(180);
    /** SIGTERM stops it in 2–3 s; kc.sh forwards the signal to its java. */
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final Path LOG = Path.of("target", "keycloak.log").toAbsolutePath(); // appended to by each start
    /** Where {@code --db=dev-file} keeps its H2 database, under the Keycloak home. */
    private static final Path H2 = Path.of("data", "h2");

    private static Keycloak shared;

    private volatile Process process;
    private final int port;
    private final String baseUrl;
    private final long logStart;
    private final Thread stopAtExit = new Thread(this::stop, "keycloak-stop");
    private boolean ready; // guarded by this
    private int rotations; // guarded by this

    private Keycloak(Process process, int port, long logStart) {
        this.process = process;
        this.port = port;
        this.baseUrl = "http://127.0.0.1:" + port;
        this.logStart = logStart;
    }

    /** The run's Keycloak, started with the realm on first use (waiting until the realm answers its discovery document). */
    public static Keycloak start() throws IOException {
        Keycloak keycloak = launched();
        keycloak.awaitReady();
        return keycloak;
    }

    /**
     * The run's Keycloak, started if it is not, ready or not yet: its {@link #issuer()} is known at once, so that a
     * server that names it can start while Keycloak does ({@link #start()} then waits for it).
     */
    public static synchronized Keycloak launched() throws IOException {
        if (shared == null || !shared.process.isAlive()) {
            SuiteTimings.started("Keycloak");
            Files.createDirectories(LOG.getParent());
            long logStart = Files.exists(LOG) ? Files.size(LOG) : 0;
            int port = LocalStack.freePort();
            shared = new Keycloak(process(port, true), port, logStart);
            Runtime.getRuntime().addShutdownHook(shared.stopAtExit); // the run's last suite leaves it running
        }
        return shared;
    }

    /** Waits until this start answers with the realm; one that fails is stopped, and the next {@link #start()} makes another. */
    private synchronized void awaitReady() throws IOException {
        if (ready) {
            return;
        }
        try {
            awaitReady(logStart);
        } catch (IOException | RuntimeException e) {
            stop();
            throw e;
        }
        ready = true;
    }

    /**
     * The identity provider down, for real: this Keycloak is stopped (SIGTERM), {@code whileDown} runs, and it is
     * started again on the same port (the same issuer) on the database it left, as a restarted production provider
     * finds its own, and waited for, whatever {@code whileDown} did. The database kept is what makes the restart a
     * start and not a set-up: on an empty one Keycloak first creates its schema and master realm and imports the
     * realm, three quarters of the 60 s a restart took beside the other lanes. The realm gets a new signing key
     * first ({@link #rotateSigningKey}), so that, as after a start on an empty database, what signs people in after the
     * restart is signed with a key the console has not seen.
     */
    public synchronized <T> T whileDown(Callable<T> whileDown) throws Exception {
        rotateSigningKey();
        stop();
        try {
            return whileDown.call();
        } finally {
            long logStart = Files.size(LOG);
            process = process(port, false);
            Runtime.getRuntime().addShutdownHook(stopAtExit);
            awaitReady(logStart);
        }
    }

    /**
     * A new RSA signing key for the realm, of a higher priority than every one before it: Keycloak signs with it from
     * now on, and the console meets a key id its copy of the provider's keys does not hold.
     */
    private void rotateSigningKey() throws IOException {
        HttpResponse<String> token = send(HttpRequest.newBuilder(URI.create(baseUrl + "/realms/master/protocol/openid-connect/token"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=password&client_id=admin-cli&username=admin&password=admin-pw")));
        if (token.statusCode() != 200) {
            throw new IllegalStateException("no administrator's token: " + token.statusCode() + " " + token.body());
        }
        String bearer = "Bearer " + json(token.body()).getString("access_token");
        HttpResponse<String> realm = send(HttpRequest.newBuilder(URI.create(baseUrl + "/admin/realms/" + REALM)).header("Authorization", bearer));
        if (realm.statusCode() != 200) {
            throw new IllegalStateException("the realm as its administrator sees it: " + realm.statusCode() + " " + realm.body());
        }
        rotations++;
        String key = Json.createObjectBuilder().add("name", "rotated-" + rotations).add("providerId", "rsa-generated")
                .add("providerType", "org.keycloak.keys.KeyProvider").add("parentId", json(realm.body()).getString("id"))
                .add("config", Json.createObjectBuilder()
                        .add("priority", Json.createArrayBuilder().add(Integer.toString(1_000 + rotations)))
                        .add("algorithm", Json.createArrayBuilder().add("RS256"))
                        .add("active", Json.createArrayBuilder().add("true"))
                        .add("enabled", Json.createArrayBuilder().add("true")))
                .build().toString();
        HttpResponse<String> added = send(HttpRequest.newBuilder(URI.create(baseUrl + "/admin/realms/" + REALM + "/components"))
                .header("Authorization", bearer).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(key)));
        if (added.statusCode() != 201) {
            throw new IllegalStateException("no new signing key: " + added.statusCode() + " " + added.body());
        }
    }

    /**
     * The identity provider hung, for real: this Keycloak's processes are stopped (SIGSTOP) — connections are still
     * accepted by the kernel, nothing answers — while {@code whileHung} runs, and continued (SIGCONT) after. Costs
     * nothing to come back from.
     */
    public synchronized <T> T whileHung(Callable<T> whileHung) throws Exception {
        List<Long> pids = pids();
        signal("STOP", pids);
        try {
            return whileHung.call();
        } finally {
            signal("CONT", pids);
        }
    }

    /** kc.sh and the java it started. */
    private List<Long> pids() {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of(process.toHandle()), process.descendants())
                .map(ProcessHandle::pid).toList();
    }

    private static void signal(String signal, List<Long> pids) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("kill", "-" + signal));
        pids.forEach(pid -> command.add(Long.toString(pid)));
        Process kill = new ProcessBuilder(command).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited with " + kill.exitValue());
        }
    }

    /** Starts kc.sh; {@code empty}: on an empty database (a launch), else on the one the last start left (a restart). */
    private static Process process(int port, boolean empty) throws IOException {
        Path home = home();
        if (empty) {
            LocalStack.deleteRecursively(home.resolve(H2)); // dev-file's database, whatever an earlier run left there
        }
        Path realm = Files.createDirectories(home.resolve("data/import")).resolve("toolgate-realm.json");
        try (InputStream in = Keycloak.class.getResourceAsStream("/keycloak/toolgate-realm.json")) {
            Files.copy(in, realm, StandardCopyOption.REPLACE_EXISTING);
        }
        // bash, not the file itself: whether bin/kc.sh kept its exec bit depends on what unpacked the tar
        ProcessBuilder builder = new ProcessBuilder("bash", "bin/kc.sh", "start-dev",
                "--http-host=127.0.0.1", "--http-port=" + port,
                "--hostname=http://127.0.0.1:" + port, // one issuer, whatever Host a request carries
                // dev-file: the database outlives a restart (whileDown); the realm's import skips a realm it already holds
                "--db=dev-file", "--import-realm")
                .directory(home.toFile()).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(LOG.toFile()));
        builder.environment().putAll(Map.of("JAVA_HOME", KeycloakJava.home().toString(),
                "KC_BOOTSTRAP_ADMIN_USERNAME", "admin", "KC_BOOTSTRAP_ADMIN_PASSWORD", "admin-pw",
                "JAVA_OPTS_KC_HEAP", "-Xms64m -Xmx512m", "JAVA_OPTS_APPEND", LocalKeycloak.C1_ONLY));
        return builder.start();
    }

    public String issuer() {
        return baseUrl + "/realms/" + REALM;
    }

    public String clientId() {
        return CLIENT_ID;
    }

    public String clientSecret() {
        return CLIENT_SECRET;
    }

    /** Where a browser starts the code flow itself, as the console's sign-in redirect sends it. */
    public String authorizationUrl(String redirectUri) {
        return issuer() + "/protocol/openid-connect/auth?client_id=" + CLIENT_ID + "&response_type=code&scope=openid"
                + "&redirect_uri=" + URLEncoder.encode(redirectUri, StandardCharsets.UTF_8);
    }

    /**
     * The token response of a password grant for {@code user}: {@code id_token}, {@code access_token} and the
     * rest, to check the claims a realm user signs in with without a browser.
     */
    public JsonObject tokens(String user, String password) throws IOException {
        String form = Map.of("grant_type", "password", "client_id", CLIENT_ID, "client_secret", CLIENT_SECRET,
                        "username", user, "password", password, "scope", "openid").entrySet().stream()
                .map(field -> field.getKey() + "=" + URLEncoder.encode(field.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        HttpResponse<String> answer = send(HttpRequest.newBuilder(URI.create(issuer() + "/protocol/openid-connect/token"))
                .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form)));
        if (answer.statusCode() != 200) {
            throw new IllegalStateException("no tokens for " + user + ": " + answer.statusCode() + " " + answer.body());
        }
        return json(answer.body());
    }

    /** The claims of {@code user}'s ID token: {@code groups}, {@code tenant}, {@code preferred_username}, ... */
    public JsonObject idTokenClaims(String user, String password) throws IOException {
        return claims(tokens(user, password).getString("id_token"));
    }

    /** A JWT's payload, unverified: Keycloak just issued it to this test. */
    public static JsonObject claims(String jwt) {
        return json(new String(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]), StandardCharsets.UTF_8));
    }

    /** A suite is done with it: the next suite signs people in on the same Keycloak, so it keeps running. */
    @Override
    public void close() {
        // stopped by stopAtExit as the test JVM exits
    }

    /**
     * SIGTERM to kc.sh, which forwards it to its java. Never SIGKILL first: killing kc.sh would orphan the java,
     * which keeps the port. Only if it hangs: the java itself, then both forcibly.
     */
    private void stop() {
        try {
            if (process.isAlive()) { // a Keycloak left stopped (SIGSTOP) by a test that ended early takes no SIGTERM
                signal("CONT", pids());
            }
            process.destroy();
            if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                List<ProcessHandle> java = process.descendants().toList();
                java.forEach(ProcessHandle::destroy);
                if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                    java.forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly().waitFor();
                }
            }
            Runtime.getRuntime().removeShutdownHook(stopAtExit);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            process.destroyForcibly(); // kill itself could not be run: nothing gentler is left
        } catch (IllegalStateException shuttingDown) {
            // closed by the hook itself, as the test JVM exits
        }
    }

    private void awaitReady(long logStart) throws IOException {
        HttpRequest.Builder discovery = HttpRequest.newBuilder(URI.create(issuer() + "/.well-known/openid-configuration"));
        Instant deadline = Instant.now().plus(READY_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Keycloak exited with " + process.exitValue() + "; the end of " + LOG + ":\n"
                        + logTail(logStart));
            }
            try {
                HttpResponse<String> answer = send(discovery);
                // the issuer, not just a 200: the free port may have been taken by another program meanwhile
                if (answer.statusCode() == 200 && issuer().equals(json(answer.body()).getString("issuer"))) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            pause();
        }
        throw new IllegalStateException("Keycloak was not ready after " + READY_TIMEOUT + "; the end of " + LOG + ":\n"
                + logTail(logStart));
    }

    private static Path home() {
        String home = System.getProperty("keycloak.home");
        if (home == null || !Files.isRegularFile(Path.of(home, "bin", "kc.sh"))) {
            throw new IllegalStateException("no Keycloak at keycloak.home=" + home
                    + ": the build unpacks it in pre-integration-test (it/pom.xml); run the suite through mvn verify");
        }
        return Path.of(home);
    }

    private String logTail(long logStart) throws IOException {
        byte[] all = Files.readAllBytes(LOG);
        int from = (int) Math.min(logStart, all.length);
        List<String> lines = new String(all, from, all.length - from, StandardCharsets.UTF_8).lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    /**
     * A minute to answer, not ten seconds: beside the other lanes on two cores, the administrator's first calls (a
     * token, then a new RSA key generated) once took longer than ten, and failed a console test that was not about
     * them. Every caller here waits for the answer anyway; only a dead Keycloak makes it wait the whole minute.
     */
    private static HttpResponse<String> send(HttpRequest.Builder request) throws IOException {
        try {
            return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()
                    .send(request.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** 100 ms, not 500: the suite that asked for Keycloak waits on this, a quarter of a second less on average. */
    private static void pause() throws IOException {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for Keycloak", e);
        }
    }

    private static JsonObject json(String body) {
        return Json.createReader(new StringReader(body)).readObject();
    }
}

package dev.toolgate.launcher;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The local run's identity provider: Keycloak from Maven Central (unpacked by the launcher's build), on a Java 25 of
 * its own, in development mode with an in-memory store, its realm imported at each start with one person per console
 * role in tenant {@code demo} — passwords and the console's client secret new each run, as the agents' tokens are.
 */
public final class LocalKeycloak implements AutoCloseable {

    public static final String REALM = "toolgate";
    public static final String CLIENT_ID = "toolgate-console";
    /**
     * {@link LocalStack#SHORT_LIVED_JVM}'s compiler half, appended to kc.sh's options (JAVA_OPTS_APPEND): kc.sh already
     * chooses G1, and a second collector would stop the JVM at start ("conflicting collector combinations").
     */
    public static final String C1_ONLY = "-XX:TieredStopAtLevel=1";
    /** The console's roles, each a group of the realm, and the person who has it. */
    static final Map<String, String> PEOPLE = Map.of("approver", "approvers", "operator", "operators", "auditor", "auditors");

    private final Process process;
    private final int port;
    private final String clientSecret;
    private final Map<String, String> passwords;
    private final Path realmFile;

    private LocalKeycloak(Process process, int port, String clientSecret, Map<String, String> passwords, Path realmFile) {
        this.process = process;
        this.port = port;
        this.clientSecret = clientSecret;
        this.passwords = passwords;
        this.realmFile = realmFile;
    }

    /** The JDK that runs Keycloak: a Java 25 as {@link Jdks} finds one, {@code toolgate.keycloak.java-home} first. */
    public static Optional<Path> java(List<Path> tried) throws IOException {
        return Jdks.find("toolgate.keycloak.java-home", feature -> feature == 25, tried);
    }

    /** Starts Keycloak from {@code home} on {@code port}, not waiting for it: {@link #awaitReady} does. */
    static LocalKeycloak start(Path home, Path javaHome, int port, Path log) throws IOException {
        String clientSecret = LocalStack.randomToken();
        Map<String, String> passwords = new LinkedHashMap<>();
        for (String person : List.of("approver", "operator", "auditor")) {
            passwords.put(person, LocalStack.randomToken().substring(3, 19));
        }
        // the realm carries the client secret and the passwords: readable by this user only, and gone once imported
        Path realm = Files.createDirectories(home.resolve("data/import")).resolve("toolgate-realm.json");
        Files.deleteIfExists(realm);
        Files.createFile(realm, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(realm, realm(clientSecret, passwords), StandardCharsets.UTF_8);
        Files.createDirectories(log.getParent());
        LocalStack.requireFree(port, "toolgate.keycloak.port");
        // bash, not the file itself: whether bin/kc.sh kept its exec bit depends on what unpacked the tar
        ProcessBuilder builder = new ProcessBuilder("bash", "bin/kc.sh", "start-dev", "--http-host=127.0.0.1", "--http-port=" + port,
                "--hostname=http://127.0.0.1:" + port, "--db=dev-mem", "--import-realm")
                .directory(home.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        // an administrator nobody is told of: else the first visitor to Keycloak's welcome page could create one
        builder.environment().putAll(Map.of("JAVA_HOME", javaHome.toString(), "JAVA_OPTS_KC_HEAP", "-Xms64m -Xmx512m",
                "JAVA_OPTS_APPEND", C1_ONLY,
                "KC_BOOTSTRAP_ADMIN_USERNAME", "admin", "KC_BOOTSTRAP_ADMIN_PASSWORD", LocalStack.randomToken()));
        return new LocalKeycloak(builder.start(), port, clientSecret, passwords, realm);
    }

    /** The demo realm: the shipped template with this run's client secret and people. */
    static String realm(String clientSecret, Map<String, String> passwords) throws IOException {
        JsonObject template;
        try (InputStream in = LocalKeycloak.class.getResourceAsStream("/keycloak/toolgate-demo-realm.json")) {
            template = Json.createReader(new StringReader(new String(in.readAllBytes(), StandardCharsets.UTF_8))).readObject();
        }
        JsonArrayBuilder clients = Json.createArrayBuilder();
        template.getJsonArray("clients").getValuesAs(JsonObject.class)
                .forEach(client -> clients.add(Json.createObjectBuilder(client).add("secret", clientSecret)));
        JsonArrayBuilder users = Json.createArrayBuilder();
        passwords.forEach((person, password) -> users.add(Json.createObjectBuilder()
                .add("username", person).add("enabled", true).add("emailVerified", true)
                .add("firstName", Character.toUpperCase(person.charAt(0)) + person.substring(1)).add("lastName", "Demo")
                .add("email", person + "@demo.toolgate.test")
                .add("attributes", Json.createObjectBuilder().add("tenant", Json.createArrayBuilder().add("demo")))
                .add("credentials", Json.createArrayBuilder().add(Json.createObjectBuilder()
                        .add("type", "password").add("value", password).add("temporary", false)))
                .add("groups", Json.createArrayBuilder().add("/" + PEOPLE.get(person)))));
        return Json.createObjectBuilder(template).add("clients", clients).add("users", users).build().toString();
    }

    /** Waits until the realm answers its discovery document with this issuer; false if it did not within {@code timeout}. */
    boolean awaitReady(Duration timeout) throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest discovery = HttpRequest.newBuilder(URI.create(issuer() + "/.well-known/openid-configuration"))
                .timeout(Duration.ofSeconds(5)).build();
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline) && process.isAlive()) {
            try {
                HttpResponse<String> answer = http.send(discovery, HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() == 200 && answer.body().contains("\"issuer\":\"" + issuer() + "\"")) {
                    Files.deleteIfExists(realmFile); // imported: its secrets stay in Keycloak's memory only
                    return true;
                }
            } catch (IOException notYet) {
            }
            Thread.sleep(500); // a Keycloak start takes tens of seconds; nothing announces it
        }
        return false;
    }

    public String issuer() {
        return "http://127.0.0.1:" + port + "/realms/" + REALM;
    }

    String clientSecret() {
        return clientSecret;
    }

    /** person → password, new each run. */
    Map<String, String> passwords() {
        return passwords;
    }

    boolean alive() {
        return process.isAlive();
    }

    /** SIGTERM to kc.sh, which forwards it to its java; the java itself if it hangs. */
    @Override
    public void close() throws InterruptedException {
        List<ProcessHandle> java = new ArrayList<>(process.descendants().toList());
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            java.forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor();
        }
    }
}

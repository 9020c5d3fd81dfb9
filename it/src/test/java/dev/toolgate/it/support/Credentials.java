package dev.toolgate.it.support;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Principals for the tests, issued through the admin API of each journal (bootstrap admin token
 * from TestStack): tenant {@code acme} has two agents, an approver, an operator and an auditor;
 * tenant {@code globex} has an agent and an operator. Every token issued is remembered for the secrets scan.
 */
public final class Credentials {

    public static final String TENANT = "acme";
    public static final Map<String, List<String>> PRINCIPALS = Map.of(
            "agent-a", List.of(TENANT, "agent"),
            "agent-b", List.of(TENANT, "agent"),
            "approver", List.of(TENANT, "approver"),
            "operator", List.of(TENANT, "operator"),
            "auditor", List.of(TENANT, "auditor"),
            "agent-globex", List.of("globex", "agent"),
            "operator-globex", List.of("globex", "operator"));

    /**
     * Tokens by the journal that issued them. Addresses are reused within a run (each gateway process takes
     * a free port, which a later one may take again), so an address alone does not say which
     * journal's tokens are good there: {@link #serves} says it when a gateway starts.
     */
    private static final Map<String, Map<String, String>> BY_JOURNAL = new ConcurrentHashMap<>();
    private static final Map<String, String> JOURNAL_AT = new ConcurrentHashMap<>();
    public static final Set<String> ISSUED = ConcurrentHashMap.newKeySet();

    private Credentials() {
    }

    /** The token of {@code principal} at the gateway {@code baseUrl}, issuing all of its journal's on first use. */
    public static String token(String baseUrl, String principal) {
        return BY_JOURNAL.computeIfAbsent(JOURNAL_AT.getOrDefault(baseUrl, baseUrl), journal -> issueAll(baseUrl)).get(principal);
    }

    /** A gateway on {@code journal} (its JDBC URL) now answers at {@code baseUrl}. */
    public static void serves(String baseUrl, String journal) {
        JOURNAL_AT.put(baseUrl, journal);
    }

    /**
     * Forgets the tokens of a gateway that stopped and said no journal: another one may come up at the
     * same address, on another journal.
     */
    public static void forget(String baseUrl) {
        JOURNAL_AT.remove(baseUrl);
        BY_JOURNAL.remove(baseUrl);
    }

    private static Map<String, String> issueAll(String baseUrl) {
        Map<String, String> tokens = new ConcurrentHashMap<>();
        PRINCIPALS.forEach((id, spec) -> tokens.put(id, issue(baseUrl, id, spec.get(0), spec.get(1))));
        return tokens;
    }

    /**
     * The cheapest authenticated call, to tell whether {@code token} is let in: 404 (no such key) when it is, 401 when not.
     */
    public static int admits(String baseUrl, String token) {
        return new Agent(baseUrl).sendAnonymously(HttpRequest.newBuilder(
                URI.create(baseUrl + "/api/v1/operations/none-" + UUID.randomUUID()))
                .header("Authorization", "Bearer " + token)).status();
    }

    /** Creates the principal, or rotates its token when an earlier test run created it in this journal. */
    public static String issue(String baseUrl, String id, String tenant, String role) {
        String body = "{\"principal_id\":\"" + id + "\",\"tenant\":\"" + tenant + "\",\"roles\":[\"" + role + "\"]}";
        HttpResponse<String> created = admin(baseUrl, "/api/v1/principals", body);
        HttpResponse<String> answer = created.statusCode() == 409
                ? admin(baseUrl, "/api/v1/principals/" + id + "/rotate", "") : created;
        if (answer.statusCode() / 100 != 2) {
            throw new IllegalStateException("could not issue " + id + ": " + answer.statusCode() + " " + answer.body());
        }
        String token = json(answer.body()).getString("token");
        ISSUED.add(token);
        return token;
    }

    public static HttpResponse<String> admin(String baseUrl, String path, String body) {
        try {
            return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build() // no h2c upgrade (GatewayProcess)
                    .send(HttpRequest.newBuilder(URI.create(baseUrl + path))
                    .header("Authorization", "Bearer " + TestStack.adminToken()).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static JsonObject json(String body) {
        return Json.createReader(new StringReader(body)).readObject();
    }
}

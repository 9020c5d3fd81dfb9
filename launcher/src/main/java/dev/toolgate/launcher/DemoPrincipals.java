package dev.toolgate.launcher;

import jakarta.json.Json;

import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One principal per role in tenant {@code demo}, issued through the admin API for the local run. */
final class DemoPrincipals {

    static final List<String> ROLES = List.of("agent", "approver", "operator", "auditor", "admin");

    private DemoPrincipals() {
    }

    /** Creates demo-agent, demo-approver, …, or rotates their tokens when the journal kept them; returns the tokens. */
    static Map<String, String> issue(String baseUrl, String adminToken) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build(); // no h2c upgrade (GatewayProcess)
        Map<String, String> tokens = new LinkedHashMap<>();
        for (String role : ROLES) {
            String id = "demo-" + role;
            HttpResponse<String> answer = post(http, baseUrl + "/api/v1/principals", adminToken,
                    "{\"principal_id\":\"" + id + "\",\"tenant\":\"demo\",\"roles\":[\"" + role + "\"]}");
            if (answer.statusCode() == 409) {
                answer = post(http, baseUrl + "/api/v1/principals/" + id + "/rotate", adminToken, "");
            }
            if (answer.statusCode() / 100 != 2) {
                throw new IOException("could not issue " + id + ": HTTP " + answer.statusCode() + " " + answer.body());
            }
            tokens.put(id, Json.createReader(new StringReader(answer.body())).readObject().getString("token"));
        }
        return tokens;
    }

    private static HttpResponse<String> post(HttpClient http, String url, String token, String body)
            throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}

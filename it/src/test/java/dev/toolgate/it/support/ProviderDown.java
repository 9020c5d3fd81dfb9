package dev.toolgate.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The console's sign-in with its identity provider stopped or hung, on whichever server the console runs: someone not
 * signed in gets a page that says the provider does not answer — 503, {@code Retry-After}, the registered status
 * line — never the server's 500; and once the provider is back, the console sends people to it again within
 * seconds, with no restart.
 */
public final class ProviderDown {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build(); // follows no redirect

    private ProviderDown() {
    }

    /** How the provider stops answering: {@link Keycloak#whileDown} (refused) or {@link Keycloak#whileHung} (no answer). */
    public interface Outage {
        HttpResponse<String> during(java.util.concurrent.Callable<HttpResponse<String>> call) throws Exception;
    }

    public static void signingInSaysSoAndRecovers(Keycloak keycloak, Outage outage, String baseUrl) throws Exception {
        URI page = URI.create(baseUrl + "/console/approvals");
        HttpResponse<String> down = outage.during(() -> {
            // the provider seen answering a moment ago is believed for up to 5 s (IdentityProviderCheck.FRESH)
            Await.await(() -> RawHttp.statusLine(baseUrl, "GET /console/approvals HTTP/1.1", "").equals("HTTP/1.1 503 Service Unavailable"),
                    "the console says the identity provider does not answer", Duration.ofSeconds(20));
            return HTTP.send(HttpRequest.newBuilder(page).timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        });
        assertEquals(503, down.statusCode(), down.body());
        assertEquals("5", down.headers().firstValue("Retry-After").orElse(""), down.headers().toString());
        assertTrue(down.headers().firstValue("Content-Type").orElse("").startsWith("text/html"), down.headers().toString());
        assertTrue(down.body().contains("id=\"provider-down\"") && down.body().contains("identity provider"), down.body());

        Await.await(() -> {
            HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(page).build(), HttpResponse.BodyHandlers.ofString());
            return answer.statusCode() == 302
                    && answer.headers().firstValue("Location").orElse("").startsWith(keycloak.issuer() + "/protocol/openid-connect/auth");
        }, "the console sends people to the identity provider again", Duration.ofSeconds(30));
    }
}

package dev.toolgate.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.launcher.LocalStack;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.openqa.selenium.By;

import java.io.IOException;

/**
 * The console suites' harness itself: a real Keycloak whose realm gives each person the groups and tenant the
 * console relies on, and a real browser signing in on Keycloak's own login page. Missing Keycloak, Java 25 or
 * the browser fails it, never skips it.
 */
@SignsPeopleIn
class KeycloakBrowserIT {

    private static Keycloak keycloak;

    @BeforeAll
    static void start() throws IOException {
        keycloak = Keycloak.start();
    }

    @AfterAll
    static void stop() {
        if (keycloak != null) {
            keycloak.close();
        }
    }

    @ParameterizedTest
    @CsvSource({"alice, approvers, acme", "oscar, operators, acme", "audrey, auditors, acme", "adam, admins, acme",
            "bella, approvers, globex"})
    void personSignsInWithTheirGroupAndTenant(String user, String group, String tenant) throws IOException {
        JsonObject claims = keycloak.idTokenClaims(user, user + "-pw");
        assertEquals(keycloak.issuer(), claims.getString("iss"), "the issuer the console discovers");
        assertEquals(keycloak.clientId(), claims.getString("aud"));
        assertEquals(user, claims.getString("preferred_username"));
        assertEquals(Json.createArrayBuilder().add(group).build(), claims.getJsonArray("groups"), "the group's name, not its path");
        assertEquals(tenant, claims.getString("tenant"));
    }

    @Test
    void personWithNoConsoleRoleSignsInWithNoGroups() throws IOException {
        JsonObject claims = keycloak.idTokenClaims("nora", "nora-pw");
        assertEquals("acme", claims.getString("tenant"));
        assertFalse(claims.containsKey("groups"), "no groups claim at all, not an empty one: " + claims);
    }

    @Test
    void wrongPasswordGetsNoTokens() {
        assertThrows(IllegalStateException.class, () -> keycloak.tokens("alice", "not-alice-pw"));
    }

    @Test
    void browserSignsInOnTheLoginPageAndComesBackWithACode() throws IOException {
        // nothing listens there: chromium shows its error page, but the address it was sent to is what counts
        String callback = "http://127.0.0.1:" + LocalStack.freePort() + "/console/Callback";
        try (Browser browser = new Browser()) {
            browser.open(keycloak.authorizationUrl(callback));
            browser.waitFor(By.id("kc-login"));
            browser.screenshot("keycloak-login");
            String landed = browser.signIn("alice", "alice-pw").waitForUrlStartingWith(callback + "?");
            browser.screenshot("keycloak-signed-in");
            assertTrue(landed.contains("code="), landed);
            assertFalse(landed.contains("error="), landed);
        }
    }
}

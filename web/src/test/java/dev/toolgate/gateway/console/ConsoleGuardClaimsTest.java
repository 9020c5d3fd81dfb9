package dev.toolgate.gateway.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.Json;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

/** A claim's values in whichever shape an identity provider sends it ({@link ConsoleGuard#strings}). */
class ConsoleGuardClaimsTest {

    @Test
    void readsOneStringAsOneValue() {
        assertEquals(List.of("acme"), ConsoleGuard.strings("acme"));
    }

    @Test
    void readsAnArrayAsItsStrings() {
        // Keycloak sends a multivalued user attribute as an array: two tenants are two, which People refuses
        assertEquals(List.of("acme", "globex"), ConsoleGuard.strings(List.of("acme", "globex")));
        assertEquals(List.of("approvers"), ConsoleGuard.strings(Json.createArrayBuilder().add("approvers").build()));
    }

    @Test
    void ignoresWhatIsNoString() {
        assertEquals(List.of(), ConsoleGuard.strings(null));
        assertEquals(List.of(), ConsoleGuard.strings(42));
        assertEquals(List.of(), ConsoleGuard.strings(Map.of("tenant", "acme")));
        assertEquals(List.of("acme"), ConsoleGuard.strings(List.of(7, "acme", Map.of())));
    }

    @Test
    void twoTenantsInOneClaimAreRefused() {
        People.Admission admission = People.admit("alice", ConsoleGuard.strings(List.of("acme", "globex")), List.of("approvers"),
                Map.of(dev.toolgate.access.Role.APPROVER, "approvers"), java.time.Instant.now());
        assertEquals(new People.Refused("alice belongs to more than one tenant; the console serves one tenant per person"), admission);
    }
}

package dev.toolgate.gateway.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.access.Role;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Who a signed-in person is here ({@link People#admit}): one test per rule of the claims → user decision. */
class PeopleTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    /** What {@link ConsoleSettings} maps by default: each role's name in the plural. */
    private static final Map<Role, String> DEFAULT_GROUPS = groups("approvers", "operators", "auditors", "admins");

    @Test
    void eachGroupMakesItsRole() {
        assertEquals(Set.of(Role.APPROVER), admitted("approvers").roles());
        assertEquals(Set.of(Role.OPERATOR), admitted("operators").roles());
        assertEquals(Set.of(Role.AUDITOR), admitted("auditors").roles());
        assertEquals(Set.of(Role.ADMIN), admitted("admins").roles());
    }

    @Test
    void severalGroupsMakeSeveralRoles() {
        assertEquals(Set.of(Role.APPROVER, Role.OPERATOR), admitted("operators", "approvers").roles());
        assertEquals(Set.of(Role.APPROVER, Role.OPERATOR, Role.AUDITOR, Role.ADMIN),
                admitted("admins", "auditors", "operators", "approvers").roles());
    }

    @Test
    void ignoresGroupsItDoesNotMap() {
        assertEquals(Set.of(Role.AUDITOR), admitted("everyone", "auditors", "agents", "Approvers", "approvers ").roles(),
                "group names are compared exactly");
    }

    @Test
    void admitsThePersonWithTheirNameTenantAndTheMomentOfSignIn() {
        ConsoleUser user = admitted("approvers");
        assertEquals("alice", user.name());
        assertEquals("acme", user.tenant());
        assertEquals(NOW, user.signedInAt());
    }

    @Test
    void stripsTheNameItKeeps() {
        ConsoleUser user = ((People.Admitted) People.admit("  alice ", List.of("acme"), List.of("auditors"), DEFAULT_GROUPS, NOW)).user();
        assertEquals("alice", user.name(), "the journal's actor is the name, not its padding");
    }

    @Test
    void refusesAPersonWithNoRoleNamingTheGroupsThatWouldGiveOne() {
        String why = refused("alice", List.of("acme"), List.of("everyone", "agents"), DEFAULT_GROUPS);
        assertTrue(why.startsWith("alice holds no console role"), why);
        for (String group : DEFAULT_GROUPS.values()) {
            assertTrue(why.contains(group), why);
        }
        assertTrue(refused("alice", List.of("acme"), List.of(), DEFAULT_GROUPS).contains("approvers"));
    }

    @Test
    void refusesAMissingOrBlankName() {
        assertTrue(refused(null, List.of("acme"), List.of("approvers"), DEFAULT_GROUPS).contains("no usable user name"));
        assertTrue(refused("", List.of("acme"), List.of("approvers"), DEFAULT_GROUPS).contains("no usable user name"));
        assertTrue(refused(" \t ", List.of("acme"), List.of("approvers"), DEFAULT_GROUPS).contains("no usable user name"));
    }

    @Test
    void refusesAnOverlongName() {
        assertInstanceOf(People.Admitted.class, People.admit("a".repeat(200), List.of("acme"), List.of("approvers"), DEFAULT_GROUPS, NOW));
        assertTrue(refused("a".repeat(201), List.of("acme"), List.of("approvers"), DEFAULT_GROUPS).contains("no usable user name"));
    }

    @Test
    void refusesANameWithControlCharacters() {
        // the name is written into the journal and the log as the actor: no line breaks, no escapes
        for (String name : List.of("alice\nadmin", "alice\r", "al\u0000ice", "alice\u001b[31m", "alice\u007f", "alice\u0085")) {
            assertTrue(refused(name, List.of("acme"), List.of("approvers"), DEFAULT_GROUPS).contains("no usable user name"), name);
        }
    }

    @Test
    void refusesAPersonWithoutATenant() {
        assertEquals("the identity provider named no tenant for alice", refused("alice", List.of(), List.of("approvers"), DEFAULT_GROUPS));
    }

    @Test
    void refusesAPersonOfTwoTenants() {
        String why = refused("alice", List.of("acme", "globex"), List.of("approvers"), DEFAULT_GROUPS);
        assertTrue(why.contains("more than one tenant"), why);
    }

    @Test
    void admitsATenantNamedTwiceAsOne() {
        // the identity and the access token may both carry the claim
        assertEquals("acme", ((People.Admitted) People.admit("alice", List.of("acme", "acme"), List.of("approvers"), DEFAULT_GROUPS, NOW))
                .user().tenant());
    }

    @Test
    void refusesATenantOfCharactersTheGatewayCannotHold() {
        for (String tenant : List.of("acme corp", "acme/other", "acme\n", "ácme", "acme'", "", "a".repeat(65))) {
            assertEquals("the identity provider named a tenant this gateway cannot hold",
                    refused("alice", List.of(tenant), List.of("approvers"), DEFAULT_GROUPS), tenant);
        }
    }

    @Test
    void admitsATenantOfTheShapeTheApiUses() {
        for (String tenant : List.of("a", "acme", "Acme-2.eu_west", "-acme", ".acme", "_acme", "a".repeat(64))) {
            assertEquals(tenant, ((People.Admitted) People.admit("alice", List.of(tenant), List.of("auditors"), DEFAULT_GROUPS, NOW))
                    .user().tenant());
        }
    }

    @Test
    void followsACustomMappingOfRolesToGroups() {
        Map<Role, String> custom = groups("/toolgate/approve", "/toolgate/ops", "/toolgate/audit", "/toolgate/admin");
        assertEquals(Set.of(Role.OPERATOR, Role.AUDITOR), ((People.Admitted) People.admit("alice", List.of("acme"),
                List.of("/toolgate/ops", "/toolgate/audit", "approvers"), custom, NOW)).user().roles());
        String why = refused("alice", List.of("acme"), List.of("approvers", "operators"), custom);
        assertTrue(why.contains("/toolgate/approve") && why.contains("/toolgate/ops"), "the default names no longer count: " + why);
    }

    @Test
    void neverMakesAPersonAnAgent() {
        Map<Role, String> mapping = new EnumMap<>(DEFAULT_GROUPS);
        mapping.put(Role.AGENT, "agents");
        assertEquals(Set.of(Role.AUDITOR), ((People.Admitted) People.admit("alice", List.of("acme"), List.of("agents", "auditors"),
                mapping, NOW)).user().roles());
        assertInstanceOf(People.Refused.class, People.admit("alice", List.of("acme"), List.of("agents"), mapping, NOW));
    }

    private static ConsoleUser admitted(String... groups) {
        return assertInstanceOf(People.Admitted.class, People.admit("alice", List.of("acme"), List.of(groups), DEFAULT_GROUPS, NOW)).user();
    }

    private static String refused(String name, List<String> tenants, List<String> groups, Map<Role, String> mapping) {
        return assertInstanceOf(People.Refused.class, People.admit(name, tenants, groups, mapping, NOW)).why();
    }

    private static Map<Role, String> groups(String approver, String operator, String auditor, String admin) {
        Map<Role, String> groups = new EnumMap<>(Role.class);
        groups.put(Role.APPROVER, approver);
        groups.put(Role.OPERATOR, operator);
        groups.put(Role.AUDITOR, auditor);
        groups.put(Role.ADMIN, admin);
        return groups;
    }
}

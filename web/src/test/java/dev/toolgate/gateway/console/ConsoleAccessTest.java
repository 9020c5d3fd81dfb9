package dev.toolgate.gateway.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.access.Role;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.Set;

/** The console's role table ({@link ConsoleAccess}), every row and every role. */
class ConsoleAccessTest {

    @Test
    void anApproverSeesApprovalsAndDecidesThemButNotEscalations() {
        assertEquals(EnumSet.of(ConsoleAccess.HOME, ConsoleAccess.SEARCH, ConsoleAccess.APPROVALS,
                ConsoleAccess.APPROVE, ConsoleAccess.DECLINE, ConsoleAccess.REVOKE), allowed(Role.APPROVER));
    }

    @Test
    void anOperatorSeesEscalationsUnfinishedWorkAndReconcileButNotApprovals() {
        assertEquals(EnumSet.of(ConsoleAccess.HOME, ConsoleAccess.SEARCH, ConsoleAccess.ESCALATIONS, ConsoleAccess.UNFINISHED,
                ConsoleAccess.RECONCILE, ConsoleAccess.RESOLVE, ConsoleAccess.START_RECONCILE), allowed(Role.OPERATOR));
    }

    @Test
    void anAuditorOnlySearchesAndReads() {
        assertEquals(EnumSet.of(ConsoleAccess.HOME, ConsoleAccess.SEARCH), allowed(Role.AUDITOR));
    }

    @Test
    void anAdminOnlySearchesAndReads() {
        // principals and tokens are managed through the API; the console gives an admin no decisions
        assertEquals(EnumSet.of(ConsoleAccess.HOME, ConsoleAccess.SEARCH), allowed(Role.ADMIN));
    }

    @Test
    void anAgentHasNoPlaceInTheConsole() {
        assertEquals(EnumSet.noneOf(ConsoleAccess.class), allowed(Role.AGENT));
        for (ConsoleAccess access : ConsoleAccess.values()) {
            assertFalse(access.roles().contains(Role.AGENT), access.name());
        }
        assertFalse(ConsoleAccess.PEOPLE_ROLES.contains(Role.AGENT));
    }

    @Test
    void nobodyWithoutARoleIsAllowedAnything() {
        for (ConsoleAccess access : ConsoleAccess.values()) {
            assertFalse(access.allows(Set.of()), access.name());
        }
    }

    @Test
    void severalRolesAllowWhatEachAllows() {
        Set<Role> both = EnumSet.of(Role.APPROVER, Role.OPERATOR);
        for (ConsoleAccess access : ConsoleAccess.values()) {
            assertEquals(access.allows(Set.of(Role.APPROVER)) || access.allows(Set.of(Role.OPERATOR)), access.allows(both), access.name());
        }
    }

    @Test
    void eachDecisionBelongsToTheRoleThatSeesItsPage() {
        for (ConsoleAccess decision : EnumSet.of(ConsoleAccess.APPROVE, ConsoleAccess.DECLINE, ConsoleAccess.REVOKE)) {
            assertEquals(ConsoleAccess.APPROVALS.roles(), decision.roles(), decision.name());
        }
        assertEquals(ConsoleAccess.ESCALATIONS.roles(), ConsoleAccess.RESOLVE.roles());
        assertEquals(ConsoleAccess.RECONCILE.roles(), ConsoleAccess.START_RECONCILE.roles());
    }

    @Test
    void everyPersonsRoleReachesHomeAndSearch() {
        for (Role role : ConsoleAccess.PEOPLE_ROLES) {
            assertTrue(ConsoleAccess.HOME.allows(Set.of(role)), role.name());
            assertTrue(ConsoleAccess.SEARCH.allows(Set.of(role)), role.name());
        }
    }

    @Test
    void handsOutCopiesOfItsRoles() {
        ConsoleAccess.APPROVE.roles().add(Role.AGENT);
        assertFalse(ConsoleAccess.APPROVE.allows(Set.of(Role.AGENT)));
    }

    private static Set<ConsoleAccess> allowed(Role role) {
        Set<ConsoleAccess> allowed = EnumSet.noneOf(ConsoleAccess.class);
        for (ConsoleAccess access : ConsoleAccess.values()) {
            if (access.allows(Set.of(role))) {
                allowed.add(access);
            }
        }
        return allowed;
    }
}

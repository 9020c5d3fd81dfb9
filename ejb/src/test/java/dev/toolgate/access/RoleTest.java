package dev.toolgate.access;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.util.Optional;

class RoleTest {

    @Test
    void readsTheRolesThisReleaseKnows() {
        assertEquals(Optional.of(Role.AGENT), Role.known("agent"));
        assertEquals(Optional.of(Role.OPERATOR), Role.known(" Operator "));
    }

    @Test
    void aRoleItDoesNotKnowGrantsNothingInsteadOfFailing() {
        assertEquals(Optional.empty(), Role.known("superuser"), "written by a newer release, or by hand");
        assertEquals(Optional.empty(), Role.known(""), "an empty roles array");
    }
}

package dev.toolgate.access;

import java.util.Set;

/** An authenticated principal: whom the journal records as actor, and whose tenant scopes every key. */
public record Caller(String principalId, String tenant, Set<Role> roles) {

    /** Immutable: one caller is shared by every request its token makes while cached. */
    public Caller {
        roles = Set.copyOf(roles);
    }

    public boolean has(Role role) {
        return roles.contains(role);
    }
}

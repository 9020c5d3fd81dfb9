package dev.toolgate.gateway.console;

import dev.toolgate.access.Caller;
import dev.toolgate.access.Role;

import java.io.Serializable;
import java.time.Instant;
import java.util.Set;
import java.util.stream.Collectors;

/** A person signed in to the console, kept in the session with when they signed in: the absolute expiry counts from it. */
public record ConsoleUser(String name, String tenant, Set<Role> roles, Instant signedInAt) implements Serializable {

    public ConsoleUser {
        roles = Set.copyOf(roles);
    }

    public boolean may(ConsoleAccess access) {
        return access.allows(roles);
    }

    /** The same person as the services know callers: approvals, resolutions and audit entries carry this name. */
    public Caller caller() {
        return new Caller(name, tenant, roles);
    }

    public String roleNames() {
        return roles.stream().sorted().map(Role::dbName).collect(Collectors.joining(", "));
    }
}

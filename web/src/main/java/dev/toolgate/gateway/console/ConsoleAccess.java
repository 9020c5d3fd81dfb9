package dev.toolgate.gateway.console;

import dev.toolgate.access.Role;

import java.util.EnumSet;
import java.util.Set;

/**
 * Who may see which page and do which thing in the console, in one place. A thing a role may not do is neither
 * shown nor accepted; {@link Role#AGENT} is in no row.
 */
public enum ConsoleAccess {
    HOME(Role.APPROVER, Role.OPERATOR, Role.AUDITOR, Role.ADMIN),
    APPROVALS(Role.APPROVER),
    ESCALATIONS(Role.OPERATOR),
    UNFINISHED(Role.OPERATOR),
    RECONCILE(Role.OPERATOR),
    SEARCH(Role.AUDITOR, Role.OPERATOR, Role.APPROVER, Role.ADMIN),

    APPROVE(Role.APPROVER),
    DECLINE(Role.APPROVER),
    REVOKE(Role.APPROVER),
    RESOLVE(Role.OPERATOR),
    START_RECONCILE(Role.OPERATOR);

    /** The roles a person can hold here; the identity provider's groups map onto these. */
    public static final Set<Role> PEOPLE_ROLES = EnumSet.of(Role.APPROVER, Role.OPERATOR, Role.AUDITOR, Role.ADMIN);

    private final Set<Role> roles;

    ConsoleAccess(Role first, Role... rest) {
        this.roles = EnumSet.of(first, rest);
    }

    public boolean allows(Set<Role> held) {
        return held.stream().anyMatch(roles::contains);
    }

    public Set<Role> roles() {
        return EnumSet.copyOf(roles);
    }
}

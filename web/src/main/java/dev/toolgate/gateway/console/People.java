package dev.toolgate.gateway.console;

import dev.toolgate.access.Role;

import java.time.Instant;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Who a signed-in person is here, from the provider's claims: a name, exactly one tenant, and roles from groups.
 * A person refused sees a 403 page saying why, and reaches nothing else.
 */
public final class People {

    /** The same shape the API's tenants have: a person's tenant is compared with the journal's, never interpreted. */
    private static final Pattern TENANT = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final int MAX_NAME = 200;

    private People() {
    }

    public sealed interface Admission {
    }

    public record Admitted(ConsoleUser user) implements Admission {
    }

    public record Refused(String why) implements Admission {
    }

    public static Admission admit(String name, Collection<String> tenants, Collection<String> groups,
                                  Map<Role, String> roleGroups, Instant now) {
        if (name == null || name.isBlank() || name.length() > MAX_NAME || name.chars().anyMatch(Character::isISOControl)) {
            return new Refused("the identity provider named no usable user name");
        }
        Set<String> distinctTenants = Set.copyOf(tenants);
        if (distinctTenants.isEmpty()) {
            return new Refused("the identity provider named no tenant for " + name);
        }
        if (distinctTenants.size() > 1) {
            return new Refused(name + " belongs to more than one tenant; the console serves one tenant per person");
        }
        String tenant = distinctTenants.iterator().next();
        if (!TENANT.matcher(tenant).matches()) {
            return new Refused("the identity provider named a tenant this gateway cannot hold");
        }
        Set<Role> roles = EnumSet.noneOf(Role.class);
        roleGroups.forEach((role, group) -> {
            if (ConsoleAccess.PEOPLE_ROLES.contains(role) && groups.contains(group)) {
                roles.add(role);
            }
        });
        if (roles.isEmpty()) {
            return new Refused(name + " holds no console role: ask for membership of one of the groups "
                    + String.join(", ", roleGroups.values()));
        }
        return new Admitted(new ConsoleUser(name.strip(), tenant, roles, now));
    }
}

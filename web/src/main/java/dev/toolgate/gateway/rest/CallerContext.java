package dev.toolgate.gateway.rest;

import dev.toolgate.access.Caller;
import dev.toolgate.access.Role;
import jakarta.ws.rs.core.SecurityContext;

import java.security.Principal;

/** The authenticated caller as JAX-RS's SecurityContext, so resources get it with {@code @Context}. */
final class CallerContext implements SecurityContext {

    private final Caller caller;
    private final boolean secure;

    CallerContext(Caller caller, boolean secure) {
        this.caller = caller;
        this.secure = secure;
    }

    /** The caller of this request; through the principal, since JAX-RS may hand out a proxy of the context. */
    static Caller of(SecurityContext context) {
        return ((CallerPrincipal) context.getUserPrincipal()).caller();
    }

    @Override
    public Principal getUserPrincipal() {
        return new CallerPrincipal(caller);
    }

    @Override
    public boolean isUserInRole(String role) {
        return caller.roles().stream().anyMatch(r -> r.dbName().equals(role));
    }

    static boolean hasAny(SecurityContext context, Role[] roles) {
        Caller caller = of(context);
        for (Role role : roles) {
            if (caller.has(role)) {
                return true;
            }
        }
        return false;
    }

    private record CallerPrincipal(Caller caller) implements Principal {
        @Override
        public String getName() {
            return caller.principalId();
        }
    }

    @Override
    public boolean isSecure() {
        return secure;
    }

    @Override
    public String getAuthenticationScheme() {
        return "Bearer";
    }
}

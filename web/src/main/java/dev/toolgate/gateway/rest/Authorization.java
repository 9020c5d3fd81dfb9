package dev.toolgate.gateway.rest;

import dev.toolgate.gateway.edge.ProblemException;
import dev.toolgate.gateway.edge.ProblemType;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.ext.Provider;

/** 403 unless the caller holds one of the roles the resource method is {@link Allowed} for. */
@Provider
@Priority(Priorities.AUTHORIZATION)
public class Authorization implements ContainerRequestFilter {

    @Context
    ResourceInfo resource;

    @Override
    public void filter(ContainerRequestContext request) {
        if (resource.getResourceMethod().isAnnotationPresent(Unauthenticated.class)) {
            return;
        }
        require(request.getSecurityContext(), resource.getResourceMethod().getAnnotation(Allowed.class));
    }

    /** 403 unless {@code caller} holds one of the roles {@code allowed} names (none named: nobody). Also {@link SubmitDoor}'s. */
    static void require(SecurityContext caller, Allowed allowed) {
        if (allowed == null || !CallerContext.hasAny(caller, allowed.value())) {
            throw new ProblemException(ProblemType.FORBIDDEN,
                    (caller.getUserPrincipal() == null ? "an anonymous caller" : caller.getUserPrincipal().getName()) + " may not do this");
        }
    }
}

package dev.toolgate.gateway.rest;

import dev.toolgate.gateway.edge.ProblemException;
import dev.toolgate.gateway.edge.ProblemType;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
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
        Allowed allowed = resource.getResourceMethod().getAnnotation(Allowed.class);
        if (allowed == null || !CallerContext.hasAny(request.getSecurityContext(), allowed.value())) {
            throw new ProblemException(ProblemType.FORBIDDEN,
                    (request.getSecurityContext().getUserPrincipal() == null ? "an anonymous caller"
                            : request.getSecurityContext().getUserPrincipal().getName()) + " may not do this");
        }
    }
}

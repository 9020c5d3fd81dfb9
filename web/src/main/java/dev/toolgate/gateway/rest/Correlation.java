package dev.toolgate.gateway.rest;

import dev.toolgate.trace.Trace;
import dev.toolgate.trace.TraceParent;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.ext.Provider;

/**
 * Takes the caller's W3C {@code traceparent} (a new trace when absent or malformed) for everything
 * this call does, and answers with {@code traceresponse} so an agent that sent none learns its id.
 * Runs before authentication: a refused call is traceable too.
 */
@Provider
@PreMatching
@Priority(Priorities.AUTHENTICATION - 100)
public class Correlation implements ContainerRequestFilter, ContainerResponseFilter {

    private static final String TRACE = Correlation.class.getName();

    @Override
    public void filter(ContainerRequestContext request) {
        String traceId = TraceParent.traceId(request.getHeaderString(TraceParent.HEADER)).orElse(null);
        request.setProperty(TRACE, Trace.start(traceId));
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        String traceId = Trace.traceId();
        if (traceId != null) {
            response.getHeaders().putSingle("traceresponse", TraceParent.outgoing(traceId));
        }
        if (request.getProperty(TRACE) instanceof Trace trace) {
            trace.close();
        }
    }
}

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
 * Takes the caller's W3C {@code traceparent} (a new trace when absent or malformed) for the whole call, and answers
 * with {@code traceresponse} so an agent that sent none learns its id. Runs before authentication: refusals are traced.
 */
@Provider
@PreMatching
@Priority(Priorities.AUTHENTICATION - 100)
public class Correlation implements ContainerRequestFilter, ContainerResponseFilter {

    static final String TRACERESPONSE = "traceresponse";
    private static final String TRACE = Correlation.class.getName();

    @Override
    public void filter(ContainerRequestContext request) {
        request.setProperty(TRACE, start(request.getHeaderString(TraceParent.HEADER)));
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        String traceresponse = traceresponse();
        if (traceresponse != null) {
            response.getHeaders().putSingle(TRACERESPONSE, traceresponse);
        }
        if (request.getProperty(TRACE) instanceof Trace trace) {
            trace.close();
        }
    }

    /** The call's trace, from its {@code traceparent} header (null or malformed: a new one). Also {@link SubmitDoor}'s. */
    static Trace start(String traceparent) {
        return Trace.start(TraceParent.traceId(traceparent).orElse(null));
    }

    /** The answer's {@code traceresponse}: the call's trace as it stands now, or null outside a call. */
    static String traceresponse() {
        String traceId = Trace.traceId();
        return traceId == null ? null : TraceParent.outgoing(traceId);
    }
}

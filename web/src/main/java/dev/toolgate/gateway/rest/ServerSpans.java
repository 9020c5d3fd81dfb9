package dev.toolgate.gateway.rest;

import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import dev.toolgate.trace.Trace;
import dev.toolgate.trace.TraceParent;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.ext.Provider;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The agent's call as a server span where the server records none: Payara Server leaves an EAR's JAX-RS resources
 * untraced (Payara Micro and WildFly trace them), and without a server span the tool execution would start its own
 * trace, losing the caller's {@code traceparent}. Runs after the servers' own tracing filters, doing nothing when their
 * span is current. A call refused before it (401, 403) has no span of ours.
 */
@Provider
@Priority(Priorities.USER + 100) // after a server's own tracing filter (SmallRye's runs at the default, USER)
public class ServerSpans implements ContainerRequestFilter, ContainerResponseFilter {

    private static final String SPAN = ServerSpans.class.getName();
    /** Probes and scrapes: no span of ours (a server that traces every request traces them itself). */
    private static final Set<Class<?>> UNTRACED = Set.of(HealthResource.class, MetricsResource.class, OpenApiResource.class);
    /** Each resource method's route, made once (by class too: a method inherited by two resources has two). */
    private static final Map<List<Object>, String> ROUTES = new ConcurrentHashMap<>();
    private static final Pattern TEMPLATE_REGEX = Pattern.compile("\\{\\s*(\\w+)\\s*:[^}]*}");

    @Context
    ResourceInfo resource;

    @Override
    public void filter(ContainerRequestContext request) {
        if (!Spans.recording()) {
            return;
        }
        if (Spans.currentSpanId() == null && !UNTRACED.contains(resource.getResourceClass())) {
            Class<?> type = resource.getResourceClass();
            Method method = resource.getResourceMethod();
            String route = method == null ? route(type, null) : ROUTES.computeIfAbsent(List.of(type, method), m -> route(type, method));
            request.setProperty(SPAN, open(request.getMethod(), route, request.getHeaderString(TraceParent.HEADER)));
        }
        Trace.traceId(); // the call's trace is the server span's from here on, whoever asks (traceresponse, a GET's log line)
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (request.getProperty(SPAN) instanceof Step server) {
            close(server, response.getStatus());
        }
    }

    /** A call's server span, continuing the caller's {@code traceparent}. Also {@link SubmitDoor}'s. */
    static Step open(String method, String route, String traceparent) {
        return Spans.server(method + " " + route, Spans.remoteParent(traceparent), OperationAttributes.none())
                .set("http.request.method", method).set("http.route", route);
    }

    static void close(Step server, int status) {
        server.set("http.response.status_code", status);
        if (status >= 500) {
            server.failed(Integer.toString(status));
        }
        server.close();
    }

    /** A resource method's template under the API's root ({@code /api/v1/operations/{key}/resume}): no values. */
    static String route(Class<?> type, Method method) {
        StringBuilder route = new StringBuilder("/api");
        append(route, type);
        append(route, method);
        return route.toString();
    }

    private static void append(StringBuilder route, AnnotatedElement element) {
        Path path = element == null ? null : element.getAnnotation(Path.class);
        if (path != null) {
            String template = TEMPLATE_REGEX.matcher(path.value()).replaceAll("{$1}");
            route.append(template.startsWith("/") ? "" : "/").append(template);
        }
    }
}

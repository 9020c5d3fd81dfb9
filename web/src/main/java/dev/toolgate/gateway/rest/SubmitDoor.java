package dev.toolgate.gateway.rest;

import dev.toolgate.access.Caller;
import dev.toolgate.gateway.edge.IdempotencyKeyHeader;
import dev.toolgate.gateway.edge.Requests;
import dev.toolgate.gateway.rest.Answers.HttpAnswer;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import dev.toolgate.trace.Trace;
import dev.toolgate.trace.TraceParent;
import jakarta.inject.Inject;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * {@code POST /api/v1/operations}, the agents' one hot call, served ahead of JAX-RS (docs/benchmark.md, "REST
 * served ahead of JAX-RS"): the same filters' rules in their order (trace, authentication, role, the server span),
 * the same resource method and mapping of answers and errors, only JAX-RS's dispatch left out. It serves only a call
 * with nothing to negotiate ({@link #serves}); every other goes on to JAX-RS, which answers it (415, 406, 405, …).
 *
 * <p>Annotated, not registered by code: the filters {@code EdgeRegistration} puts first ({@code Stopping}, the
 * input edge) come before every declared filter, so what reaches this has passed them.
 */
@WebFilter(urlPatterns = SubmitDoor.PATH)
public class SubmitDoor implements Filter {

    static final String PATH = "/api/v1/operations";
    /** The resource method this serves: its role, media type and route are read from it, never said twice. */
    static final Method SUBMIT = submitMethod();
    private static final Allowed ALLOWED = SUBMIT.getAnnotation(Allowed.class);
    private static final String ROUTE = ServerSpans.route(OperationsResource.class, SUBMIT);

    @Inject
    Authentication authentication;
    @Inject
    OperationsResource operations;

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        if (!serves(request.getMethod(), headers(request, HttpHeaders.CONTENT_TYPE), headers(request, HttpHeaders.ACCEPT))) {
            chain.doFilter(req, res);
            return;
        }
        HttpServletResponse response = (HttpServletResponse) res;
        Step server = null;
        HttpAnswer answer;
        String traceparent = headerString(request, TraceParent.HEADER);
        try (Trace trace = Correlation.start(traceparent)) {
            try {
                Caller caller = authentication.admit(headers(request, HttpHeaders.AUTHORIZATION), request.getContentLengthLong());
                Authorization.require(new CallerContext(caller, request.isSecure()), ALLOWED);
                // read before the span opens: a client gone mid-body (IOException) leaves no span open on this thread
                byte[] body = body(request);
                if (Spans.recording() && Spans.currentSpanId() == null) { // no server's own span, as in ServerSpans
                    server = ServerSpans.open(HttpMethod.POST, ROUTE, traceparent);
                }
                Trace.traceId(); // the call's trace is the server span's from here on
                answer = operations.submit(headers(request, IdempotencyKeyHeader.NAME), caller, base(request), body);
            } catch (RuntimeException e) {
                answer = HttpAnswer.of(ProblemMappers.toResponse(e));
            }
            try {
                write(answer, Correlation.traceresponse(), response);
            } finally {
                if (server != null) {
                    ServerSpans.close(server, answer.status());
                }
            }
        }
    }

    /**
     * Whether this call is one JAX-RS would dispatch to {@link OperationsResource#submit} with nothing to negotiate:
     * a POST of {@code application/json} (any parameters) that accepts JSON — no {@code Accept}, or one naming
     * {@code application/json}, {@code application/*} or {@code *}{@code /*} without {@code q=0}.
     */
    static boolean serves(String method, List<String> contentType, List<String> accept) {
        if (!HttpMethod.POST.equals(method) || contentType.size() != 1 || !isJson(mediaType(contentType.get(0)))) {
            return false;
        }
        if (accept.isEmpty()) {
            return true;
        }
        for (String header : accept) {
            for (String range : header.split(",")) {
                String type = mediaType(range);
                if ((isJson(type) || type.equals("application/*") || type.equals("*/*")) && !refused(range)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean isJson(String mediaType) {
        return mediaType.equals(MediaType.APPLICATION_JSON);
    }

    /** The type and subtype alone, lower-cased. */
    private static String mediaType(String value) {
        int semicolon = value.indexOf(';');
        return (semicolon < 0 ? value : value.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
    }

    /** {@code q=0} (or a weight that does not parse: JAX-RS decides then). */
    private static boolean refused(String range) {
        for (String parameter : range.split(";")) {
            int eq = parameter.indexOf('=');
            if (eq > 0 && parameter.substring(0, eq).strip().equalsIgnoreCase("q")) {
                try {
                    return Double.parseDouble(parameter.substring(eq + 1).strip()) <= 0;
                } catch (NumberFormatException e) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The body within the size limit (a body without Content-Length is read no further than one byte past it). */
    private byte[] body(HttpServletRequest request) throws IOException {
        byte[] body = Requests.bodyWithin(request.getInputStream(), authentication.maxBodyBytes());
        if (body == null) {
            throw authentication.tooLarge();
        }
        return body;
    }

    /** The API's base URI ({@code http://host:port/context/api/}), as JAX-RS's {@link UriInfo#getBaseUri()} is. */
    static URI base(HttpServletRequest request) {
        return URI.create(Requests.base(request) + "/api/");
    }

    /** An answer as JAX-RS would write it: the status, the headers, the body (always text here) in UTF-8. */
    static void write(HttpAnswer answer, String traceresponse, HttpServletResponse response) throws IOException {
        response.setStatus(answer.status());
        if (answer.contentType() != null) {
            response.setContentType(answer.contentType()); // a server may keep its own type apart from its headers
        }
        for (HttpAnswer.Header header : answer.headers()) {
            response.addHeader(header.name(), header.value());
        }
        if (traceresponse != null) {
            response.setHeader(Correlation.TRACERESPONSE, traceresponse);
        }
        if (answer.body() != null) {
            byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
            response.setContentLength(bytes.length);
            response.getOutputStream().write(bytes);
        }
    }

    private static List<String> headers(HttpServletRequest request, String name) {
        return Collections.list(request.getHeaders(name));
    }

    /** As JAX-RS's {@code getHeaderString}: every value, comma-joined (two {@code traceparent}s make a malformed one), or null. */
    static String headerString(HttpServletRequest request, String name) {
        List<String> values = headers(request, name);
        return values.isEmpty() ? null : String.join(",", values);
    }

    private static Method submitMethod() {
        try {
            Method submit = OperationsResource.class.getMethod("submit", HttpHeaders.class, SecurityContext.class, UriInfo.class, byte[].class);
            if (!List.of(submit.getAnnotation(Consumes.class).value()).equals(List.of(MediaType.APPLICATION_JSON))) {
                throw new IllegalStateException("OperationsResource.submit consumes other than JSON: SubmitDoor.serves must learn it");
            }
            return submit;
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("SubmitDoor serves OperationsResource.submit, which is gone", e);
        }
    }
}

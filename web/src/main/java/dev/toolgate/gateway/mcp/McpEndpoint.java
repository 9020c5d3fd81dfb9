package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.access.Caller;
import dev.toolgate.access.AuthenticatedCallers;
import dev.toolgate.gateway.edge.BearerToken;
import dev.toolgate.gateway.edge.RateLimiter;
import dev.toolgate.gateway.edge.Requests;
import dev.toolgate.gateway.edge.ServletDoor;
import dev.toolgate.platform.JournalOutage;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import dev.toolgate.trace.Trace;
import dev.toolgate.trace.TraceParent;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.Optional;

/**
 * {@code /mcp}, MCP's Streamable HTTP transport for 2026-07-28 (stateless by design) and the {@code initialize}
 * revisions 2025-11-25 and 2025-06-18 on one URL ({@link EraLadder} tells them apart). Each POST carries one JSON-RPC
 * message, answered with {@code application/json}, or 202 for a notification; no {@code Mcp-Session-Id}, no
 * server-initiated stream, so only POST is served. Checked in order: Origin (403), bearer token (401, with the
 * protected-resource metadata), rate (429), size (413).
 */
@WebServlet(urlPatterns = McpEndpoint.PATH)
public class McpEndpoint extends ServletDoor {

    static final String PATH = "/mcp";
    static final String METADATA = "/.well-known/oauth-protected-resource" + PATH;

    @Inject
    AuthenticatedCallers callers;
    @Inject
    RateLimiter rateLimiter;
    @Inject
    McpSettings settings;
    @Inject
    McpMethods methods;

    public McpEndpoint() {
        super("POST");
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String origin = request.getHeader("Origin");
        if (!settings.allows(origin)) { // DNS rebinding: the transport's MUST
            send(response, 403, error("this Origin is not allowed to call the MCP endpoint")); // not repeated: it is the caller's text
            return;
        }
        Optional<Caller> caller;
        try {
            caller = BearerToken.of(request.getHeader("Authorization")).flatMap(callers::authenticate);
        } catch (RuntimeException e) {
            if (!JournalOutage.causes(e)) {
                throw e;
            }
            response.setHeader("Retry-After", "5");
            send(response, 503, error("the journal database does not answer; retry after Retry-After"));
            return;
        }
        if (caller.isEmpty()) {
            response.setHeader("WWW-Authenticate", "Bearer resource_metadata=\"" + base(request) + METADATA + "\"");
            send(response, 401, error("send Authorization: Bearer <token> with a live token"));
            return;
        }
        Duration wait = rateLimiter.acquire(caller.get().principalId());
        if (!wait.isZero()) {
            response.setHeader("Retry-After", Long.toString(Math.max(1, (wait.toMillis() + 999) / 1000)));
            send(response, 429, error("too many requests from " + caller.get().principalId()));
            return;
        }
        byte[] body = Requests.bodyWithin(request.getInputStream(), settings.maxBodyBytes());
        if (body == null) {
            response.setHeader("Connection", "close"); // the unread rest of the body must not be taken for a request
            send(response, 413, error("the body may be at most " + settings.maxBodyBytes() + " bytes"));
            return;
        }
        exchange(caller.get(), request, response, body);
    }

    private void exchange(Caller caller, HttpServletRequest request, HttpServletResponse response, byte[] body) throws IOException {
        JsonRpc.Message message = JsonRpc.read(body);
        String traceparent = McpTracing.traceparent(message, request.getHeader(TraceParent.HEADER));
        // the servers trace JAX-RS by themselves, not servlets: this call's server span is ours
        try (Step span = Spans.server("POST " + PATH, Spans.remoteParent(traceparent), OperationAttributes.none());
             Trace trace = Trace.start(TraceParent.traceId(traceparent).orElse(null))) {
            McpTracing.describe(span, message);
            response.setHeader("traceresponse", TraceParent.outgoing(Trace.traceId()));
            int status;
            String version = request.getHeader(EraLadder.VERSION_HEADER);
            Optional<String> repeated = MirroredHeaders.repeated(name -> Collections.list(request.getHeaders(name)).size());
            if (repeated.isPresent()) { // before anything reads a first value that a proxy may have read as the last
                send(response, status = 400, JsonRpc.error(message instanceof JsonRpc.Call call ? call.id() : JsonValue.NULL,
                        JsonRpc.HEADER_MISMATCH, "Header mismatch: " + repeated.get()));
            } else if (message instanceof JsonRpc.Malformed malformed) {
                send(response, status = 400, JsonRpc.error(malformed.id(), malformed.code(), malformed.message()));
            } else if (message instanceof JsonRpc.Call call) {
                status = answer(caller, call, request, response);
            } else if (version != null && !ProtocolVersions.SUPPORTED.contains(version)) {
                send(response, status = 400, EraLadder.unsupported(null, version));
            } else {
                response.setStatus(status = 202); // a notification or a client's reply: accepted, nothing to say
            }
            span.set("http.response.status_code", status);
        }
    }

    /**
     * A request's answer: refused at the ladder (400), or the method's reply — for a modern request, 404 for a method it
     * names in vain and 400 for a capability it did not declare; every other error stays in-band (200).
     */
    private int answer(Caller caller, JsonRpc.Call call, HttpServletRequest request, HttpServletResponse response) throws IOException {
        EraLadder.Admission admission = EraLadder.admit(request::getHeader, call);
        if (admission instanceof EraLadder.Refused refused) {
            send(response, 400, refused.error());
            return 400;
        }
        ProtocolVersions.Era era = ((EraLadder.Admitted) admission).era();
        JsonObject reply = methods.answer(caller, call, era, base(request) + "/api");
        int status = !(era instanceof ProtocolVersions.Modern) ? 200 : switch (JsonRpc.errorCode(reply)) {
            case JsonRpc.METHOD_NOT_FOUND -> 404;
            case JsonRpc.MISSING_REQUIRED_CLIENT_CAPABILITY -> 400; // the transport's status for it, like the ladder's refusals
            default -> 200;
        };
        send(response, status, reply);
        return status;
    }

    static String base(HttpServletRequest request) {
        return Requests.base(request);
    }

    private static JsonObject error(String detail) {
        return JSON.createObjectBuilder().add("error", detail).build();
    }

    static void send(HttpServletResponse response, int status, JsonObject body) throws IOException {
        byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }
}

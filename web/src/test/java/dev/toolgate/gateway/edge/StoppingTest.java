package dev.toolgate.gateway.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.FilterChain;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** A stopping instance refuses every new call in its door's form, with Retry-After, and lets the probes through. */
class StoppingTest {

    private final Map<String, Object> answered = new HashMap<>();
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private boolean passedOn;

    @AfterEach
    void serveAgain() {
        Stopping.cancel();
    }

    @Test
    void passesEveryCallOnWhileNotStopping() throws Exception {
        call("/api/v1/operations");
        assertTrue(passedOn);
        assertFalse(Stopping.underway());
    }

    @Test
    void refusesAnApiCallWithAProblemAndRetryAfterOnceStopping() throws Exception {
        Stopping.begin();
        call("/api/v1/operations");
        assertFalse(passedOn, "nothing of the call reaches the door");
        assertEquals(503, answered.get("setStatus"));
        assertEquals("1", answered.get("Retry-After"));
        assertEquals("application/problem+json", answered.get("setContentType"));
        assertTrue(body.toString(StandardCharsets.UTF_8).contains("\"type\":\"https://toolgate.dev/problems/gateway-stopping\""), body.toString());
    }

    @Test
    void refusesAnMcpCallWithAJsonRpcError() throws Exception {
        Stopping.begin();
        call("/mcp");
        assertEquals(503, answered.get("setStatus"));
        assertEquals("application/json", answered.get("setContentType"));
        assertTrue(body.toString(StandardCharsets.UTF_8).contains("\"code\":-32000"), body.toString());
        assertTrue(body.toString(StandardCharsets.UTF_8).contains("gateway-stopping"), body.toString());
    }

    @Test
    void letsTheHealthProbesAnswerThemselves() throws Exception {
        Stopping.begin();
        call("/api/health/ready");
        assertTrue(passedOn, "readiness says DOWN itself");
    }

    private void call(String path) throws Exception {
        HttpServletRequest request = ServletFakes.proxy(HttpServletRequest.class, (method, args) -> switch (method) {
            case "getServletPath" -> path;
            case "getRequestURI" -> path;
            case "getContextPath" -> "";
            default -> null;
        });
        HttpServletResponse response = ServletFakes.proxy(HttpServletResponse.class, (method, args) -> {
            switch (method) {
                case "setStatus", "setContentType" -> answered.put(method, args[0]);
                case "setContentLength" -> answered.put(method, args[0]);
                case "setHeader" -> answered.put((String) args[0], args[1]);
                case "getOutputStream" -> {
                    return ServletFakes.outputInto(body);
                }
                default -> {
                }
            }
            return null;
        });
        FilterChain chain = (req, res) -> passedOn = true;
        new Stopping().doFilter(request, response, chain);
    }
}

package dev.toolgate.gateway.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.List;

/** How the edge reads a path or a query before it checks it, and which door answers. */
class InputEdgeTest {

    @Test
    void decodesPercentEscapesAsUtf8() {
        assertEquals("t:pay:4111111111111111:v1", InputEdge.decode("t%3Apay%3A4111111111111111%3Av1", "the path", false));
        assertEquals("é a+b", InputEdge.decode("%C3%A9%20a+b", "the path", false));
        assertEquals("é a b", InputEdge.decode("%C3%A9%20a+b", "query", true));
        assertEquals("k\u0000", InputEdge.decode("k%00", "query", true));
    }

    @Test
    void refusesMalformedEscapesAndBytesThatAreNotUtf8() {
        assertThrows(InputRefused.class, () -> InputEdge.decode("a%2", "query", true));
        assertThrows(InputRefused.class, () -> InputEdge.decode("a%zz", "query", true));
        assertThrows(InputRefused.class, () -> InputEdge.decode("a%ff", "query", true));
        assertThrows(InputRefused.class, () -> InputEdge.decode("%ED%A0%80", "query", true)); // an encoded surrogate
    }

    @Test
    void eachPathBelongsToOneDoor() {
        assertEquals(InputEdge.Door.API, InputEdge.Door.of("/api/v1/operations"));
        assertEquals(InputEdge.Door.MCP, InputEdge.Door.of("/mcp"));
        assertEquals(InputEdge.Door.CONSOLE, InputEdge.Door.of("/console/search"));
        assertEquals(InputEdge.Door.CONSOLE, InputEdge.Door.of("/console"));
        assertEquals(InputEdge.Door.API, InputEdge.Door.of("/mcpx"));
        assertEquals(InputEdge.Door.API, InputEdge.Door.of("/"));
    }

    /** A request as the container hands it over: the URI as sent, the servlet path and path info as it routes it. */
    private static HttpServletRequest request(String uri, String servletPath, String pathInfo, String header, String value) {
        return ServletFakes.proxy(HttpServletRequest.class, (name, args) -> switch (name) {
            case "getMethod" -> "POST";
            case "getRequestURI" -> uri;
            case "getContextPath" -> "";
            case "getServletPath" -> servletPath;
            case "getPathInfo" -> pathInfo;
            case "getHeaderNames" -> Collections.enumeration(header == null ? List.of() : List.of(header));
            case "getHeaders" -> Collections.enumeration(List.of(value));
            default -> null;
        });
    }

    @Test
    void answersInTheFormOfTheDoorTheContainerRoutesTo() {
        assertEquals(InputEdge.Door.CONSOLE, InputEdge.Door.of(request("//console/search", "/console", "/search", null, null)));
        assertEquals(InputEdge.Door.CONSOLE, InputEdge.Door.of(request("/%63onsole/search", "/console", "/search", null, null)));
        assertEquals(InputEdge.Door.MCP, InputEdge.Door.of(request("/mcp;x=y", "/mcp", null, null, null)));
        assertEquals(InputEdge.Door.API, InputEdge.Door.of(request("/api/v1/operations", "/api", "/v1/operations", null, null)));
        assertEquals(InputEdge.Door.API, InputEdge.Door.of(request("/", "", "/", null, null)));
    }

    @Test
    void neverNamesAHeaderNoDoorReads() {
        InputRefused refused = assertThrows(InputRefused.class, () -> InputEdge.check(
                request("/mcp", "/mcp", null, "x-4111-1111-1111-1111", "a\u0000"), "/mcp", InputEdge.Door.MCP));
        assertFalse(refused.getMessage().contains("4111"), refused.getMessage());
        assertTrue(refused.getMessage().contains("control character"), refused.getMessage());
        InputRefused read = assertThrows(InputRefused.class, () -> InputEdge.check(
                request("/mcp", "/mcp", null, "Origin", "a\u0000"), "/mcp", InputEdge.Door.MCP));
        assertTrue(read.getMessage().contains("Origin"), "a header a door reads is named: " + read.getMessage());
    }
}

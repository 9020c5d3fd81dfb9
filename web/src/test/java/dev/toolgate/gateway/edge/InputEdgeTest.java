package dev.toolgate.gateway.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

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
}

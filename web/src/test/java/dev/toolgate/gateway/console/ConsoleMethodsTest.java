package dev.toolgate.gateway.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.gateway.edge.MethodsServedTest;
import org.junit.jupiter.api.Test;

/** The console's servlets serve GET (and POST, the pages with forms); every other method is 405 with Allow. */
class ConsoleMethodsTest {

    @Test
    void answersAMethodThePublicPagesDoNotServeWith405() throws Exception {
        assertEquals("405 GET, HEAD, OPTIONS", MethodsServedTest.answer(new ConsolePublicServlet(), "PATCH", "/console/signed-out"));
    }

    @Test
    void answersAMethodAnUnconfiguredConsoleDoesNotServeWith405AndTheRestWith503() throws Exception {
        assertEquals("405 GET, HEAD, POST, OPTIONS", MethodsServedTest.answer(new ConsoleUnconfiguredServlet(), "PATCH", "/console"));
        assertEquals("503 null", MethodsServedTest.answer(new ConsoleUnconfiguredServlet(), "GET", "/console"));
    }
}

package dev.toolgate.gateway.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.HashMap;
import java.util.Map;

/** A servlet door answers every method it does not serve, known to the Servlet API or not, with 405 and Allow. */
public class MethodsServedTest {

    /** What {@code servlet} answers to {@code method} on {@code path}: the status and the Allow header ("status allow"). */
    public static String answer(HttpServlet servlet, String method, String path) throws Exception {
        Map<String, Object> sent = new HashMap<>();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        HttpServletRequest request = ServletFakes.proxy(HttpServletRequest.class, (name, args) -> switch (name) {
            case "getMethod" -> method;
            case "getProtocol" -> "HTTP/1.1";
            case "getServletPath" -> path;
            case "getRequestURI" -> path;
            case "getContextPath" -> "";
            default -> null;
        });
        HttpServletResponse response = ServletFakes.proxy(HttpServletResponse.class, (name, args) -> {
            switch (name) {
                case "setStatus", "sendError" -> sent.put("status", args[0]);
                case "setHeader", "addHeader" -> sent.put((String) args[0], args[1]);
                case "getOutputStream" -> {
                    return ServletFakes.outputInto(body);
                }
                default -> {
                }
            }
            return null;
        });
        servlet.service(request, response);
        return sent.get("status") + " " + sent.get("Allow");
    }

    @Test
    void answersAMethodTheServletApiDoesNotKnowWith405AndAllow() throws Exception {
        assertEquals("405 GET, HEAD, OPTIONS", answer(new FrontPage(), "PATCH", ""));
        assertEquals("405 GET, HEAD, OPTIONS", answer(new FrontPage(), "PROPFIND", ""));
    }

    @Test
    void answersAKnownMethodTheDoorDoesNotServeWith405AndAllow() throws Exception {
        assertEquals("405 GET, HEAD, OPTIONS", answer(new FrontPage(), "DELETE", ""));
        assertEquals("405 GET, HEAD, OPTIONS", answer(new FrontPage(), "TRACE", ""));
    }

    @Test
    void answersOptionsWithWhatItServes() throws Exception {
        assertEquals("null GET, HEAD, OPTIONS", answer(new FrontPage(), "OPTIONS", ""));
    }
}

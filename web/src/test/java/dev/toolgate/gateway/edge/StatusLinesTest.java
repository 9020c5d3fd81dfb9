package dev.toolgate.gateway.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Which phrase each status gets, and when it is put on the server's own response. */
class StatusLinesTest {

    @Test
    void everyStatusTheApiAnswersWithHasItsRegisteredPhrase() {
        for (ProblemType type : ProblemType.values()) {
            assertEquals(true, ReasonPhrases.of(type.status()).isPresent(), type.name());
        }
        assertEquals(Optional.of("Unprocessable Content"), ReasonPhrases.of(422)); // RFC 9110, not RFC 4918's "Entity"
        assertEquals(Optional.of("Too Many Requests"), ReasonPhrases.of(429));
        assertEquals(Optional.of("Content Too Large"), ReasonPhrases.of(413));
        assertEquals(Optional.of("Non-Authoritative Information"), ReasonPhrases.of(203));
        assertEquals(Optional.empty(), ReasonPhrases.of(299), "unassigned");
    }

    @Test
    void leavesAServerOfAnotherShapeAsItIs() {
        HttpServletResponse plain = response(new int[1], new boolean[1]);
        assertSame(plain, StatusLines.phrased(plain), "nothing to wrap on a server it cannot reach");
    }

    @Test
    void setsThePhraseAfterEachStatusAndNoneOnceCommitted() throws Exception {
        int[] status = new int[1];
        boolean[] committed = new boolean[1];
        List<String> phrases = new ArrayList<>();
        HttpServletResponse phrased = new StatusLines.Phrased(response(status, committed), (server, phrase) -> phrases.add(status[0] + " " + phrase));

        phrased.setStatus(422);
        phrased.sendError(429);
        phrased.setStatus(299); // unassigned: the server's own phrase, not 429's left behind
        phrased.setStatus(201);
        phrased.reset(); // the status is the server's again, so is the phrase
        committed[0] = true;
        phrased.setStatus(503);

        assertEquals(List.of("422 Unprocessable Content", "429 Too Many Requests", "299 null", "201 Created", "201 null"), phrases);
    }

    private static HttpServletResponse response(int[] status, boolean[] committed) {
        return (HttpServletResponse) Proxy.newProxyInstance(StatusLinesTest.class.getClassLoader(), new Class<?>[] {HttpServletResponse.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "setStatus", "sendError" -> {
                        status[0] = (Integer) args[0];
                        yield null;
                    }
                    case "reset" -> null;
                    case "isCommitted" -> committed[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> null;
                });
    }
}

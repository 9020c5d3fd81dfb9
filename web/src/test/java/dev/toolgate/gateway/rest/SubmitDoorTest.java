package dev.toolgate.gateway.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.access.Role;
import dev.toolgate.gateway.edge.ServletFakes;
import dev.toolgate.gateway.rest.Answers.HttpAnswer;
import dev.toolgate.trace.TraceParent;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

class SubmitDoorTest {

    private static final List<String> JSON = List.of("application/json");
    private static final List<String> ANY = List.of();

    @Test
    void servesAPostOfJsonThatAcceptsJson() {
        assertTrue(SubmitDoor.serves("POST", JSON, ANY), "no Accept");
        for (String accept : List.of("application/json", "*/*", "application/*", "APPLICATION/JSON",
                "text/html, application/json;q=0.5", "application/json; charset=utf-8", "text/csv, */*;q=0.1")) {
            assertTrue(SubmitDoor.serves("POST", JSON, List.of(accept)), accept);
        }
        for (String contentType : List.of("application/json; charset=UTF-8", "Application/JSON", " application/json ")) {
            assertTrue(SubmitDoor.serves("POST", List.of(contentType), ANY), contentType);
        }
        assertTrue(SubmitDoor.serves("POST", JSON, List.of("text/csv", "application/json")), "two Accept lines");
    }

    /** JAX-RS answers these as before: 405, 415, 406, or whatever it makes of a header this does not read. */
    @Test
    void leavesToJaxRsEveryCallThatNeedsNegotiation() {
        for (String method : List.of("GET", "PUT", "DELETE", "OPTIONS", "HEAD", "PATCH", "post")) {
            assertFalse(SubmitDoor.serves(method, JSON, ANY), method);
        }
        for (List<String> contentType : List.of(List.<String>of(), List.of("text/plain"), List.of("application/json-patch+json"),
                List.of("application/*"), List.of("*/*"), List.of("application/json", "application/json"), List.of(""))) {
            assertFalse(SubmitDoor.serves("POST", contentType, ANY), contentType.toString());
        }
        for (String accept : List.of("text/csv", "application/problem+json", "application/json;q=0", "application/json;q=0.0",
                "*/*;q=0", "application/json;q=x", "text/*", "")) {
            assertFalse(SubmitDoor.serves("POST", JSON, List.of(accept)), accept);
        }
    }

    /** Two {@code traceparent} headers are one malformed value, as JAX-RS reads them: a new trace, as on every other path. */
    @Test
    void readsAHeaderAsJaxRsDoesEveryValueCommaJoined() {
        String one = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        String other = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        assertEquals(one, SubmitDoor.headerString(withTraceparents(one), TraceParent.HEADER));
        assertEquals(null, SubmitDoor.headerString(withTraceparents(), TraceParent.HEADER));
        String two = SubmitDoor.headerString(withTraceparents(one, other), TraceParent.HEADER);
        assertEquals(one + "," + other, two);
        assertTrue(TraceParent.traceId(two).isEmpty(), "malformed: a new trace");
    }

    private static HttpServletRequest withTraceparents(String... values) {
        return ServletFakes.proxy(HttpServletRequest.class, (method, args) -> method.equals("getHeaders")
                ? Collections.enumeration(args[0].equals(TraceParent.HEADER) ? List.of(values) : List.<String>of()) : null);
    }

    @Test
    void servesTheResourceMethodsOwnRouteAndRole() {
        assertEquals("/api/v1/operations", ServerSpans.route(OperationsResource.class, SubmitDoor.SUBMIT));
        assertTrue(SubmitDoor.SUBMIT.isAnnotationPresent(POST.class));
        assertEquals(List.of(Role.AGENT), List.of(SubmitDoor.SUBMIT.getAnnotation(Allowed.class).value()));
        assertEquals("/api/" + OperationsResource.class.getAnnotation(Path.class).value(), SubmitDoor.PATH, "the door's path is the resource's");
    }

    @Test
    void writesTheAnswerAsItIsTheTypeAsTheContentTypeAndTheBodyInUtf8WithItsLength() throws Exception {
        List<String> writes = new ArrayList<>();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        HttpServletResponse response = ServletFakes.proxy(HttpServletResponse.class, (method, args) -> {
            if (method.equals("getOutputStream")) {
                return ServletFakes.outputInto(body);
            }
            writes.add(method + (args == null ? "" : " " + List.of(args)));
            return null;
        });
        HttpAnswer answer = HttpAnswer.json(200, "{\"status\":\"succeeded\",\"name\":\"Счёт\"}")
                .header("Idempotent-Replayed", "true").header("Retry-After", "5");

        SubmitDoor.write(answer, "00-trace-span-01", response);

        int length = answer.body().getBytes(StandardCharsets.UTF_8).length;
        assertEquals(List.of("setStatus [200]", "setContentType [application/json]", "addHeader [Idempotent-Replayed, true]",
                "addHeader [Retry-After, 5]", "setHeader [traceresponse, 00-trace-span-01]", "setContentLength [" + length + "]"), writes);
        assertEquals(answer.body(), body.toString(StandardCharsets.UTF_8));
    }

    @Test
    void anAnswerWithoutBodyWritesNoTypeNoLengthAndNoBytes() throws Exception {
        List<String> writes = new ArrayList<>();
        HttpServletResponse response = ServletFakes.proxy(HttpServletResponse.class, (method, args) -> {
            writes.add(method);
            return null;
        });

        SubmitDoor.write(new HttpAnswer(204, null, null, List.of(), null), null, response);

        assertEquals(List.of("setStatus"), writes);
    }

    @Test
    void anAnswersHeadersAreItsOwnAddingOneMakesAnother() {
        HttpAnswer plain = HttpAnswer.json(201, "{}");
        HttpAnswer located = plain.header("Location", "http://gateway/api/v1/operations/k-1");

        assertEquals(List.of(), plain.headers());
        assertEquals(List.of(new HttpAnswer.Header("Location", "http://gateway/api/v1/operations/k-1")), located.headers());
    }
}

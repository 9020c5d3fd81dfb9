package dev.toolgate.gateway.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.access.Role;
import dev.toolgate.gateway.edge.ServletFakes;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The console's route table: each page and action once, with the access it asks; anything else is 404 for everybody. */
class ConsoleRoutesTest {

    private final ConsoleRoutes routes = ConsoleRoutes.of(new OperationDesk(), new ApprovalDesk(), new ReconcileDesk(), new SignOut());

    @Test
    void everyPageAndActionHasOneRouteThatAsksItsAccess() {
        Map<String, ConsoleAccess> expected = new HashMap<>();
        expected.put("GET ", null); // /console: on to /console/
        expected.put("GET /Callback", null); // the identity provider's way back
        expected.put("POST /sign-out", null);
        expected.put("GET /", ConsoleAccess.HOME);
        expected.put("GET /approvals", ConsoleAccess.APPROVALS);
        expected.put("GET /approval", ConsoleAccess.APPROVALS);
        expected.put("GET /escalations", ConsoleAccess.ESCALATIONS);
        expected.put("GET /unfinished", ConsoleAccess.UNFINISHED);
        expected.put("GET /search", ConsoleAccess.SEARCH);
        expected.put("GET /operation", ConsoleAccess.SEARCH);
        expected.put("GET /reconcile", ConsoleAccess.RECONCILE);
        expected.put("POST /approvals/approve", ConsoleAccess.APPROVE);
        expected.put("POST /approvals/decline", ConsoleAccess.DECLINE);
        expected.put("POST /approvals/revoke", ConsoleAccess.REVOKE);
        expected.put("POST /operation/resolve", ConsoleAccess.RESOLVE);
        expected.put("POST /reconcile", ConsoleAccess.START_RECONCILE);
        Map<String, ConsoleAccess> table = new HashMap<>();
        for (ConsoleRoutes.Route route : routes.all()) {
            table.put(route.method() + " " + route.path(), route.access());
            assertSame(route, routes.find(route.method(), route.path()).orElseThrow(), route.path());
        }
        assertEquals(expected, table);
    }

    @Test
    void refusesATableWithTwoRoutesForOnePath() {
        ConsoleRoutes.Handler nothing = exchange -> { };
        assertThrows(IllegalArgumentException.class, () -> new ConsoleRoutes(List.of(
                new ConsoleRoutes.Route("GET", "/search", ConsoleAccess.SEARCH, nothing),
                new ConsoleRoutes.Route("GET", "/search", ConsoleAccess.HOME, nothing))));
    }

    @Test
    void findsNoRouteForAPathOrMethodNotInTheTable() {
        for (String[] request : new String[][] {{"GET", "/nope"}, {"GET", "/approvals/"}, {"GET", "/approvals/approve"}, {"POST", "/approvals"},
                {"GET", "/sign-out"}, {"POST", ""}, {"POST", "/Callback"}, {"PUT", "/"}, {"DELETE", "/reconcile"}, {"GET", "/Approvals"}}) {
            assertTrue(routes.find(request[0], request[1]).isEmpty(), request[0] + " " + request[1]);
        }
    }

    @Test
    void answersAnUnknownPath404WhateverThePersonsRoles() throws Exception {
        Answer unknown = get("/nope", Role.AUDITOR);
        assertEquals(404, unknown.status);
        assertTrue(unknown.body.contains("There is no console page at /console/nope."), unknown.body);
        assertEquals(404, get("/approvals/approve", Role.APPROVER).status, "an action is no page");
        Answer nothingToSend = send("/approvals", Role.APPROVER);
        assertEquals(404, nothingToSend.status);
        assertTrue(nothingToSend.body.contains("There is nothing to send to /console/approvals."), nothingToSend.body);
    }

    @Test
    void answersAPageOrActionOfAnotherRole403BeforeReadingAnything() throws Exception {
        Answer page = get("/approvals", Role.AUDITOR);
        assertEquals(403, page.status);
        assertTrue(page.body.contains("This page is for approver; you are auditor."), page.body);
        assertEquals(403, get("/escalations", Role.APPROVER).status);
        assertEquals(403, send("/approvals/approve", Role.OPERATOR).status);
        assertEquals(403, send("/reconcile", Role.AUDITOR).status);
    }

    private record Answer(int status, String body) {
    }

    private static Answer get(String path, Role role) throws Exception {
        return exchange("GET", path, role);
    }

    private static Answer send(String path, Role role) throws Exception {
        return exchange("POST", path, role);
    }

    /** A request of a signed-in person past the guard, to a console with desks that have nothing behind them. */
    private static Answer exchange(String method, String path, Role role) throws Exception {
        ConsoleServlet console = new ConsoleServlet();
        console.operations = new OperationDesk();
        console.approvals = new ApprovalDesk();
        console.reconcile = new ReconcileDesk();
        console.signOut = new SignOut();
        console.init();
        ConsoleUser person = new ConsoleUser("ada", "acme", Set.of(role), Instant.now());
        HttpSession session = ServletFakes.proxy(HttpSession.class, (name, args) -> "getAttribute".equals(name) && ConsoleGuard.CSRF.equals(args[0])
                ? "c".repeat(43) : null);
        HttpServletRequest request = ServletFakes.proxy(HttpServletRequest.class, (name, args) -> switch (name) {
            case "getMethod" -> method;
            case "getPathInfo" -> path;
            case "getRequestURI" -> "/console" + path;
            case "getAttribute" -> ConsoleGuard.USER.equals(args[0]) ? person : null;
            case "getSession" -> session;
            case "getContextPath" -> "";
            case "getProtocol" -> "HTTP/1.1";
            default -> null;
        });
        int[] status = {0};
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        ServletOutputStream out = ServletFakes.outputInto(body);
        HttpServletResponse response = ServletFakes.proxy(HttpServletResponse.class, (name, args) -> {
            if (name.equals("setStatus") || name.equals("sendError")) {
                status[0] = (Integer) args[0];
            }
            return name.equals("getOutputStream") ? out : null;
        });
        console.service((jakarta.servlet.ServletRequest) request, response);
        return new Answer(status[0], body.toString(StandardCharsets.UTF_8));
    }
}

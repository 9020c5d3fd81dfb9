package dev.toolgate.gateway.console;

import dev.toolgate.gateway.edge.InputRefused;
import dev.toolgate.gateway.edge.ServletDoor;
import dev.toolgate.operation.OperationRefused;
import dev.toolgate.trace.Trace;
import jakarta.inject.Inject;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.Optional;
import java.util.stream.Collectors;

/** Finds the request's route, asks its access, and lets its desk answer; a refusal is answered here, in one place. */
public class ConsoleServlet extends ServletDoor {

    @Inject
    OperationDesk operations;
    @Inject
    ApprovalDesk approvals;
    @Inject
    ReconcileDesk reconcile;
    @Inject
    SignOut signOut;
    private ConsoleRoutes routes;

    public ConsoleServlet() {
        super("GET", "POST");
    }

    @Override
    public void init() {
        routes = ConsoleRoutes.of(operations, approvals, reconcile, signOut);
    }

    /** Each request in a trace of its own, as an API call is in the call's: the decisions it journals name it. */
    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        try (Trace trace = Trace.start(null)) { // with tracing on, the trace of the decision's span (Trace adopts it)
            super.service(request, response);
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        answer(ConsoleRoutes.GET, request, response, "There is no console page at ");
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        answer(ConsoleRoutes.POST, request, response, "There is nothing to send to ");
    }

    private void answer(String method, HttpServletRequest request, HttpServletResponse response, String nothingAt) throws IOException {
        Optional<ConsoleRoutes.Route> route = routes.find(method, request.getPathInfo() == null ? "" : request.getPathInfo());
        if (route.isPresent() && route.get().open()) {
            route.get().handler().answer(new ConsoleExchange(request, response, null, null));
            return;
        }
        ConsoleUser user = (ConsoleUser) request.getAttribute(ConsoleGuard.USER);
        String csrf = (String) request.getSession().getAttribute(ConsoleGuard.CSRF);
        try {
            ConsoleRoutes.Route found = route.orElseThrow(() -> new Refusal(404, nothingAt + request.getRequestURI() + "."));
            require(user, found.access());
            found.handler().answer(new ConsoleExchange(request, response, user, csrf));
        } catch (Refusal refusal) {
            refuse(response, refusal, csrf);
        } catch (InputRefused refused) {
            refuse(response, new Refusal(refused.status(), "Refused, nothing changed: the " + refused.getMessage() + "."), csrf);
        } catch (OperationRefused refused) {
            refuse(response, refusal(refused), csrf);
        }
    }

    private static void require(ConsoleUser user, ConsoleAccess access) {
        if (!user.may(access)) {
            throw new Refusal(403, "This page is for " + access.roles().stream().map(r -> r.dbName()).sorted()
                    .collect(Collectors.joining(" or ")) + "; you are " + user.roleNames() + ".");
        }
    }

    private static Refusal refusal(OperationRefused refused) {
        return new Refusal(refused.reason() == OperationRefused.Reason.OPERATION_NOT_FOUND
                || refused.reason() == OperationRefused.Reason.APPROVAL_NOT_FOUND ? 404 : 409, "Refused, nothing changed: "
                + refused.getMessage() + ".");
    }

    private static void refuse(HttpServletResponse response, Refusal refusal, String csrf) throws IOException {
        ConsolePages.refused(response, refusal.status, refusal.status == 403 ? "Not for your role" : refusal.status == 404 ? "Not found"
                : "Refused", refusal.getMessage(), csrf);
    }
}

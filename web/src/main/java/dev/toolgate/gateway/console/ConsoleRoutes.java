package dev.toolgate.gateway.console;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every console page and action by method and path, with the access it asks: a route not here is 404 whatever the
 * roles. A state change is a POST answered with a redirect; its CSRF check is {@link ConsoleGuard}'s, before any route.
 */
final class ConsoleRoutes {

    static final String GET = "GET";
    static final String POST = "POST";

    @FunctionalInterface
    interface Handler {
        void answer(ConsoleExchange exchange) throws IOException;
    }

    /** One page or action; {@code access} null: answered before the person is looked at, by anybody signed in. */
    record Route(String method, String path, ConsoleAccess access, Handler handler) {

        boolean open() {
            return access == null;
        }
    }

    private final Map<String, Route> routes = new HashMap<>();

    ConsoleRoutes(List<Route> table) {
        for (Route route : table) {
            if (routes.putIfAbsent(route.method() + " " + route.path(), route) != null) {
                throw new IllegalArgumentException("two console routes for " + route.method() + " /console" + route.path());
            }
        }
    }

    static ConsoleRoutes of(OperationDesk operations, ApprovalDesk approvals, ReconcileDesk reconcile, SignOut signOut) {
        return new ConsoleRoutes(List.of(
                new Route(GET, "", null, exchange -> exchange.redirect("/console/")),
                // the identity provider's way back, already handled by the sign-in: on to the console
                new Route(GET, "/Callback", null, exchange -> exchange.redirect("/console/")),
                new Route(POST, "/sign-out", null, signOut::answer),

                new Route(GET, "/", ConsoleAccess.HOME, operations::home),
                new Route(GET, "/approvals", ConsoleAccess.APPROVALS, approvals::queue),
                new Route(GET, "/approval", ConsoleAccess.APPROVALS, approvals::decision),
                new Route(GET, "/escalations", ConsoleAccess.ESCALATIONS, operations::escalations),
                new Route(GET, "/unfinished", ConsoleAccess.UNFINISHED, operations::unfinished),
                new Route(GET, "/search", ConsoleAccess.SEARCH, operations::search),
                new Route(GET, "/operation", ConsoleAccess.SEARCH, operations::record),
                new Route(GET, "/reconcile", ConsoleAccess.RECONCILE, reconcile::run),

                new Route(POST, "/approvals/approve", ConsoleAccess.APPROVE, approvals::approve),
                new Route(POST, "/approvals/decline", ConsoleAccess.DECLINE, approvals::decline),
                new Route(POST, "/approvals/revoke", ConsoleAccess.REVOKE, approvals::revoke),
                new Route(POST, "/operation/resolve", ConsoleAccess.RESOLVE, operations::resolve),
                new Route(POST, "/reconcile", ConsoleAccess.START_RECONCILE, reconcile::start)));
    }

    Optional<Route> find(String method, String path) {
        return Optional.ofNullable(routes.get(method + " " + path));
    }

    List<Route> all() {
        return List.copyOf(routes.values());
    }
}

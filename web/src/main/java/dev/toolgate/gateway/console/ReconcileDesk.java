package dev.toolgate.gateway.console;

import dev.toolgate.reconcile.ReconcileRuns;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.io.IOException;

/** Where an operator starts a reconcile run and watches it until it ends (the page reloads while it runs). */
@ApplicationScoped
public class ReconcileDesk {

    @Inject
    ReconcileRuns reconciliations;

    /** {@code GET /console/reconcile}: the start button, or with {@code ?run=} that run of the person's tenant. */
    void run(ConsoleExchange exchange) throws IOException {
        long run = whole(exchange.parameter("run"));
        ReconcileRuns.Run found = run < 0 ? null : reconciliations.find(run, exchange.user().tenant()).orElse(null);
        exchange.show("Reconcile", ConsoleAccess.RECONCILE, OperationPages.reconcile(found, run, exchange.user(), exchange.csrf()),
                OperationPages.running(found) ? 2 : 0, 200);
    }

    void start(ConsoleExchange exchange) {
        long run = reconciliations.start();
        exchange.seeOther("/console/reconcile?run=" + run);
    }

    private static long whole(String value) {
        if (value == null || value.isEmpty()) {
            return -1;
        }
        if (!value.matches("[0-9]{1,18}")) {
            throw new Refusal(400, "A run id is a whole number.");
        }
        return Long.parseLong(value);
    }
}

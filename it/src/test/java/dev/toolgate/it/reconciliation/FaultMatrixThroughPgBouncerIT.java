package dev.toolgate.it.reconciliation;

import dev.toolgate.it.support.PgBouncer;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The fault matrix with PgBouncer in transaction pooling mode between the gateway and its journal, as teams run a
 * pooler: every statement of the journal through it — the capture, the fenced writes, the row locks and the reconcile
 * claim's {@code SKIP LOCKED}, the migrations, the batch job's repository. Its outcome is judged as the matrix's own:
 * every operation settled, no key with two objects at its target, no effect unaccounted for. The caller cache's
 * LISTEN cannot work through a transaction pooler: the cache lapses to reading principals (PrincipalChangeListener).
 */
class FaultMatrixThroughPgBouncerIT extends FaultMatrix {

    private static final String DATABASE = "matrix_pgbouncer";
    private static PgBouncer pgBouncer;
    private static GatewayProcess gateway;

    @BeforeAll
    static void start() throws Exception {
        pgBouncer = PgBouncer.inFrontOf(TestStack.newDatabase(DATABASE));
        gateway = matrixGateway(pgBouncer.jdbcUrl(), "matrix-pgbouncer-gateway");
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            TestStack.stop(gateway);
        } finally {
            if (pgBouncer != null) {
                pgBouncer.close();
            }
        }
    }

    @Override
    protected GatewayProcess gateway() {
        return gateway;
    }

    @Override
    protected String database() {
        return DATABASE;
    }
}

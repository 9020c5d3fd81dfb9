package dev.toolgate.it.reconciliation;

import dev.toolgate.it.support.Lane;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The fault matrix ({@link FaultMatrix}) on a gateway connected straight to its journal. */
@Lane(3)
class FaultMatrixIT extends FaultMatrix {

    private static final String DATABASE = "matrix";
    private static GatewayProcess gateway;

    @BeforeAll
    static void start() throws Exception {
        gateway = matrixGateway(TestStack.newDatabase(DATABASE), "matrix-gateway");
    }

    @AfterAll
    static void stop() throws Exception {
        TestStack.stop(gateway);
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

package dev.toolgate.it.reconciliation;

import dev.toolgate.it.support.Lane;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.List;

/**
 * The fault matrix ({@link FaultMatrix}) on a gateway connected straight to its journal, with the targets' notifications
 * on: the simulators announce every change, some announcements faulted.
 */
@Lane(3)
class FaultMatrixIT extends FaultMatrix {

    private static final String DATABASE = "matrix";
    private static GatewayProcess gateway;
    private static List<String> subscriptions = List.of();

    @BeforeAll
    static void start() throws Exception {
        gateway = matrixGateway(TestStack.newDatabase(DATABASE), "matrix-gateway", notificationSettings());
        subscriptions = subscribe(gateway);
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            withdraw(gateway, subscriptions);
        } finally {
            TestStack.discard(gateway);
        }
    }

    @Override
    protected boolean announced() {
        return true;
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

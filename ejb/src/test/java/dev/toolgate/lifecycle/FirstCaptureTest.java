package dev.toolgate.lifecycle;

import dev.toolgate.journal.JournalConnections;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.toolgate.access.Caller;
import dev.toolgate.access.Role;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The first look is a plain bean, trusted to its caller to run outside any transaction: called inside one, it refuses
 * before it borrows a connection, since a capture committed with someone else's transaction could be rolled back after
 * a target had been called for it. The statement itself on PostgreSQL is {@code FirstCaptureIT}'s.
 */
class FirstCaptureTest {

    private final List<String> borrowed = new ArrayList<>();

    @Test
    void aLookInsideATransactionIsRefusedBeforeAnyConnectionIsBorrowed() {
        FirstCapture capture = new FirstCapture();
        capture.journal = new JournalConnections(journal());
        capture.transactions = transactionStatus(Status.STATUS_ACTIVE);

        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> capture.look(new Caller("agent-a", "acme", Set.of(Role.AGENT)), "key-1", null));

        assertEquals("the capture of key-1 was called inside a transaction", refused.getMessage());
        assertEquals(List.of(), borrowed);
    }

    private DataSource journal() {
        return (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
            borrowed.add(method.getName());
            throw new UnsupportedOperationException("no database in this test");
        });
    }

    private static TransactionSynchronizationRegistry transactionStatus(int status) {
        return (TransactionSynchronizationRegistry) Proxy.newProxyInstance(FirstCaptureTest.class.getClassLoader(),
                new Class<?>[] {TransactionSynchronizationRegistry.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getTransactionStatus")) {
                        return status;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}

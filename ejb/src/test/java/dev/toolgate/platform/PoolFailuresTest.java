package dev.toolgate.platform;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.ResourceAllocationException;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;

/** A pool's refusal is known by its class's name, its subclasses included; a driver's own failure is not one. */
class PoolFailuresTest {

    @Test
    void knowsAConnectorsPoolGivingUpAndItsSubclasses() {
        assertTrue(PoolFailures.is(new ResourceException("no connection")));
        assertTrue(PoolFailures.is(new ResourceAllocationException("pool exhausted")));
        assertTrue(PoolFailures.is(new ResourceAllocationException("pool exhausted") {
        }));
    }

    @Test
    void doesNotTakeADriverFailureOrItsCauseForOne() {
        assertFalse(PoolFailures.is(new SQLException("refused", "08001")));
        assertFalse(PoolFailures.is(new RuntimeException(new ResourceException("below"))));
    }
}

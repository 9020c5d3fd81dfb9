package dev.toolgate.it.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * A suite that runs in the second lane: beside the suites of the first lane, one second-lane suite at a time
 * (junit-platform.properties runs two lanes). Most of a suite that owns its servers is spent waiting — for a
 * gateway to boot, a lease to lapse, a failover, the reconcile job — so two lanes finish the run in far less time
 * than one, on the same two cores.
 *
 * <p>What may go here: a suite that starts its own gateway (and, if it needs one, its own PostgreSQL), keeps to its
 * own database on the shared PostgreSQL and changes nothing the first lane relies on — no shared server, installation
 * or port (the EAR servers, Keycloak, the browser and the local run stay in the first lane). A second-lane suite gets
 * simulators of its own ({@link TestStack#simulators()} and everything built on it answer by lane), so a fault one
 * lane arms by a pattern that is not its own key ({@code "/Post"}, an INN, every YooKassa look-up) is never taken by
 * a request from the other. The lock keeps second-lane suites from running beside each other, and
 * {@link ExecutionMode#CONCURRENT} lets one run beside the first lane, whose suites run in order on the main thread;
 * the lock also keeps each suite's own tests in order, one at a time.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(SecondLane.LOCK)
@ExtendWith(SecondLane.Marker.class)
public @interface SecondLane {

    String LOCK = "the second lane";

    /**
     * Marks the thread running a second-lane suite, and every thread it starts, for {@link TestStack} to hand it the
     * second lane's simulators.
     */
    final class Marker implements BeforeAllCallback, AfterAllCallback {

        private static final InheritableThreadLocal<Boolean> HERE = new InheritableThreadLocal<>();

        static boolean here() {
            return Boolean.TRUE.equals(HERE.get());
        }

        @Override
        public void beforeAll(ExtensionContext context) {
            HERE.set(true);
        }

        @Override
        public void afterAll(ExtensionContext context) {
            HERE.remove();
        }
    }
}

package dev.toolgate.it.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Set;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.ResourceLocksProvider;

/**
 * A suite that runs in lane 2 or 3, beside lane 1: the suites without this annotation run in order on the main
 * thread, and each other lane runs its suites one at a time beside it (junit-platform.properties: three lanes). Most
 * of a suite that owns its servers is spent waiting — for a gateway to boot, a lease to lapse, a failover, the
 * reconcile job, so a third lane keeps the two cores busier.
 *
 * <p>What may go here: a suite that starts its own gateway (and, if it needs one, its own PostgreSQL), keeps to its
 * own database on the shared PostgreSQL and changes nothing another lane relies on — no shared server, installation
 * or port (the EAR servers, Keycloak, the browser and the local run stay in lane 1). Each lane gets simulators of its
 * own ({@link TestStack#simulators()} and everything built on it answer by lane), so a fault one lane arms by a
 * pattern that is not its own key ({@code "/Post"}, an INN, every YooKassa look-up) is never taken by a request from
 * another. The lane's lock keeps its suites from running beside each other, and {@link ExecutionMode#CONCURRENT} lets
 * them run beside the other lanes; the lock also keeps each suite's own tests in order, one at a time.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(providers = Lane.Locks.class)
@ExtendWith(Lane.Marker.class)
public @interface Lane {

    /** The suites' own lanes, 2 and 3; lane 1 is the main thread's. */
    int value();

    /** Which lane a suite runs in. */
    final class Of {

        private Of() {
        }

        /** The lane {@code suite} runs in: its annotation's, or 1. */
        public static int suite(Class<?> suite) {
            Lane lane = suite.getAnnotation(Lane.class);
            return lane == null ? 1 : lane.value();
        }
    }

    /** One lock per lane: the suites of one lane run one at a time. */
    final class Locks implements ResourceLocksProvider {

        @Override
        public Set<Lock> provideForClass(Class<?> suite) {
            int lane = Of.suite(suite);
            if (lane < 2 || lane > 3) {
                throw new IllegalArgumentException(suite.getName() + " asks for lane " + lane + ": the lanes of their own are 2 and 3");
            }
            return Set.of(new Lock("lane " + lane));
        }
    }

    /**
     * Marks the thread running a lane's suite, and every thread it starts, with the lane, for {@link TestStack} to
     * hand it that lane's simulators. A spare worker the pool starts while a lane's suite waits inherits that lane too;
     * harmless, since this callback sets the mark before any of a suite's own code runs and removes it after: a suite
     * must not reach {@link TestStack} before it (no extension ahead of it, no per-class instance doing so).
     */
    final class Marker implements BeforeAllCallback, AfterAllCallback {

        private static final InheritableThreadLocal<Integer> HERE = new InheritableThreadLocal<>();

        /** The lane of the suite running on this thread: 1 unless it is a lane of its own. */
        static int here() {
            Integer lane = HERE.get();
            return lane == null ? 1 : lane;
        }

        @Override
        public void beforeAll(ExtensionContext context) {
            HERE.set(Of.suite(context.getRequiredTestClass()));
        }

        @Override
        public void afterAll(ExtensionContext context) {
            HERE.remove();
        }
    }
}

package dev.toolgate.admission;

import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * At most so many agents' commands at work in this instance at once; a command waiting for a target holds no permit.
 *
 * <p>Why: the server's request pool has threads for hundreds of calls, and each call spends most of its life waiting for a
 * target. Many calls at once are fine while they wait; but when more of them do the gateway's own work (canonicalize,
 * journal, decide) than the cores can run, each holds a journal connection while it waits its turn for a core,
 * PostgreSQL's backends and the JVM's threads take the cores from each other, and every call costs more CPU
 * (docs/benchmark.md, "Request threads at c=32"). Shrinking the request pool would bound that too, but would also bound
 * how many calls may wait for a slow target. So a command takes a permit once its body is read
 * ({@code gateway.CommandGateway}), and gives it back for as long as a target is asked ({@code TargetRegistry}) or a short
 * back-off is waited out ({@code OperationLoop}).
 *
 * <p>Nothing is held while waiting for a permit: a call without one has no journal connection and no transaction, as none
 * is open while a target is called. Waiting is first come, first served. The reconcile job's look-ups and the
 * notifications' take none: they bound their own concurrency.
 */
public final class WorkPermits {

    /** The permits this thread's call took one of: given back to them, even if the bound changed since. */
    private static final ThreadLocal<Semaphore> HELD = new ThreadLocal<>();
    private static volatile Semaphore permits; // null: no bound

    private WorkPermits() {
    }

    /** At most {@code bound} calls at work at once; 0: no bound. */
    public static void bound(int bound) {
        if (bound < 0) {
            throw new IllegalArgumentException("a bound of " + bound + " calls at work");
        }
        permits = bound == 0 ? null : new Semaphore(bound, true);
    }

    /** The bound unless the settings name one: four calls at work per core. */
    public static int defaultBound() {
        return 4 * Runtime.getRuntime().availableProcessors();
    }

    /**
     * Waits for a permit for this thread's call. True: the caller took it and must {@link #leave}; false: the thread
     * already holds one, or there is no bound.
     */
    public static boolean enter() {
        Semaphore bound = permits;
        if (bound == null || HELD.get() != null) {
            return false;
        }
        bound.acquireUninterruptibly();
        HELD.set(bound);
        return true;
    }

    /** Gives back the permit {@link #enter} took. */
    public static void leave() {
        Semaphore held = HELD.get();
        HELD.remove();
        if (held != null) {
            held.release();
        }
    }

    /** Permits free now (for tests); -1 without a bound. */
    static int free() {
        Semaphore bound = permits;
        return bound == null ? -1 : bound.availablePermits();
    }

    /** Runs {@code call} — a target's request — without this thread's permit, if it holds one, and takes one again after. */
    public static <T> T awayFor(Supplier<T> call) {
        Semaphore held = HELD.get();
        if (held == null) {
            return call.get();
        }
        held.release();
        try {
            return call.get();
        } finally {
            held.acquireUninterruptibly();
        }
    }
}

package dev.toolgate.admission;

import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * At most so many agents' commands at work in this instance at once; a command waiting for a target holds no permit
 * (docs/operations.md, "Request threads"). Past the cores, each extra call holds a journal connection while it waits
 * for a core and the slowest wait far longer than their work (docs/benchmark.md, "Request threads at c=32"); a smaller
 * request pool would also bound the calls waiting for a slow target. A command takes a permit once its body is read
 * ({@code gateway.CommandGateway}) and gives it back while a target is asked ({@code TargetRegistry}) or a short
 * back-off is waited out ({@code OperationLoop}). A waiting command holds no transaction and no journal connection;
 * first come, first served. The reconcile job's look-ups and notifications take no permit: they bound their own.
 */
public final class WorkPermits {

    /**
     * The bound is soft: after this a command works without a permit, so a stalled journal (its permits' holders waiting
     * on it) still gives its own outage answer, and a command back from its target, holding its lease, records its outcome.
     */
    static final Duration WAIT = Duration.ofSeconds(1);

    private static final class Holding {
        final Semaphore from;
        boolean holds;

        Holding(Semaphore from) {
            this.from = from;
        }
    }

    private static final ThreadLocal<Holding> HELD = new ThreadLocal<>();
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

    /** The bound a setting names: a whole number of 0 or more (up to 999,999); none for anything else, or no setting. */
    public static OptionalInt named(String setting) {
        if (setting == null || !setting.strip().matches("[0-9]{1,6}")) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(Integer.parseInt(setting.strip()));
    }

    public static int defaultBound() {
        return 4 * Runtime.getRuntime().availableProcessors();
    }

    /**
     * Waits, {@link #WAIT} at most, for a permit for this thread's command. True: the caller must {@link #leave}, whether a
     * permit was had or not; false: the thread's command entered already, or there is no bound.
     */
    static boolean enter() {
        Semaphore bound = permits;
        if (bound == null || HELD.get() != null) {
            return false;
        }
        Holding holding = new Holding(bound);
        holding.holds = take(bound);
        HELD.set(holding);
        return true;
    }

    /** Ends what {@link #enter} began, giving back the permit if one is held. */
    static void leave() {
        Holding holding = HELD.get();
        HELD.remove();
        if (holding != null && holding.holds) {
            holding.from.release();
        }
    }

    public static <T> T within(Supplier<T> command) {
        boolean entered = enter();
        try {
            return command.get();
        } finally {
            if (entered) {
                leave();
            }
        }
    }

    /** Permits free now (for tests); -1 without a bound. */
    static int free() {
        Semaphore bound = permits;
        return bound == null ? -1 : bound.availablePermits();
    }

    /**
     * Runs {@code call} — a target's request, a back-off's wait — without this thread's permit, if it holds one, and waits
     * for one again after, {@link #WAIT} at most.
     */
    public static <T> T awayFor(Supplier<T> call) {
        Holding holding = HELD.get();
        if (holding == null) {
            return call.get();
        }
        if (holding.holds) {
            holding.from.release();
            holding.holds = false;
        }
        try {
            return call.get();
        } finally {
            holding.holds = take(holding.from);
        }
    }

    private static boolean take(Semaphore from) {
        try {
            return from.tryAcquire(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the command goes on without a permit; its caller sees the interrupt
            return false;
        }
    }
}

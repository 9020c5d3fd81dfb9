package dev.toolgate.admission;

import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * At most so many agents' commands at work in this instance at once; a command waiting for a target holds no permit.
 *
 * <p>Why: the server's request pool has threads for hundreds of calls, and each call spends most of its life waiting
 * for a target. Many calls at once are fine while they wait; but when more of them do the gateway's own work
 * (canonicalize, journal, decide) than the cores can run, each holds a journal connection while it waits its turn for
 * a core, PostgreSQL's backends and the JVM's threads take the cores from each other, and the slowest calls wait far
 * longer than their work (docs/benchmark.md, "Request threads at c=32"). Shrinking the request pool would bound that
 * too, but would also bound how many calls may wait for a slow target. So a command takes a permit once its body is
 * read ({@code gateway.CommandGateway}), and gives it back for as long as a target is asked ({@code TargetRegistry})
 * or a short back-off is waited out ({@code OperationLoop}).
 *
 * <p>The bound is soft: a command waits at most {@link #WAIT} for a permit, then works without one. So a journal that
 * stalls (its permits' holders waiting on it) delays a command by that second before it meets the journal's own outage
 * answer, as it would without the bound, and a command back from its target, holding its lease, never waits longer than
 * that to record the outcome. While it waits a command holds no transaction and no journal connection: none is open when
 * it enters or when a target is called. Waiting is first come, first served. The reconcile job's look-ups and the
 * notifications' take no permit: they bound their own concurrency.
 */
public final class WorkPermits {

    /** The longest a command waits for a permit before it works without one. */
    static final Duration WAIT = Duration.ofSeconds(1);

    /** This thread's command: the permits it takes from, and whether it holds one of them now. */
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

    /** The bound unless the settings name one: four calls at work per core. */
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

    /** Runs {@code command} as this thread's command: {@link #enter} before it, {@link #leave} after. */
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

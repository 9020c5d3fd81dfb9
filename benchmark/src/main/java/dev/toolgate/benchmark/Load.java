package dev.toolgate.benchmark;

import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Drives calls and records each one's latency, in one of two ways. Closed loop: {@code c} workers,
 * each sending its next call when the last one answered — throughput at a concurrency. Open loop:
 * calls due on a fixed schedule whether or not earlier ones answered, each timed from when it was due,
 * so a stall shows up in the latency of every call it delayed (no coordinated omission).
 */
final class Load {

    /** Enough senders that a schedule well under capacity is never late for want of a thread. */
    private static final int OPEN_LOOP_SENDERS = 64;

    /** One call; {@code i} numbers it from 0 across all workers. */
    @FunctionalInterface
    interface Call {
        void run(int i) throws Exception;
    }

    record Result(int calls, double seconds, Histogram latency) {

        double throughput() {
            return calls / seconds;
        }

        double millis(double percentile) {
            return latency.getValueAtPercentile(percentile) / 1000.0;
        }

        double maxMillis() {
            return latency.getMaxValue() / 1000.0;
        }
    }

    private Load() {
    }

    /** As many calls as {@code concurrency} workers complete in {@code length}. */
    static Result closed(int concurrency, Duration length, Call call) throws Exception {
        long end = System.nanoTime() + length.toNanos();
        return drive(concurrency, call, i -> System.nanoTime() < end ? System.nanoTime() : -1);
    }

    /** Exactly {@code calls} calls by {@code concurrency} workers. */
    static Result count(int concurrency, int calls, Call call) throws Exception {
        return drive(concurrency, call, i -> i < calls ? System.nanoTime() : -1);
    }

    /** {@code perSecond} calls a second for {@code length}, each timed from its scheduled send. */
    static Result open(double perSecond, Duration length, Call call) throws Exception {
        long start = System.nanoTime();
        long end = start + length.toNanos();
        return drive(OPEN_LOOP_SENDERS, call, i -> {
            long due = start + (long) (i * 1e9 / perSecond);
            if (due >= end) {
                return -1;
            }
            for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                LockSupport.parkNanos(wait);
            }
            return due;
        });
    }

    /** When call {@code i} counts as sent (waiting for it if need be), or -1 once the run is over. */
    private interface Schedule {
        long sendAt(int i);
    }

    private static Result drive(int workers, Call call, Schedule schedule) throws Exception {
        Histogram latency = new Histogram(TimeUnit.SECONDS.toMicros(120), 3);
        AtomicInteger next = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        long started = System.nanoTime();
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                running.add(pool.submit(() -> {
                    for (int i = next.getAndIncrement(); ; i = next.getAndIncrement()) {
                        long sent = schedule.sendAt(i);
                        if (sent < 0) {
                            return null;
                        }
                        call.run(i);
                        long micros = (System.nanoTime() - sent) / 1000;
                        synchronized (latency) {
                            latency.recordValue(Math.min(micros, latency.getHighestTrackableValue()));
                        }
                        done.incrementAndGet();
                    }
                }));
            }
            for (Future<?> worker : running) {
                worker.get();
            }
        } finally {
            pool.shutdownNow();
        }
        return new Result(done.get(), (System.nanoTime() - started) / 1e9, latency);
    }
}

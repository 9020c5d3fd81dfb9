package dev.toolgate.benchmark;

import org.HdrHistogram.Histogram;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.ArrayList;
import java.util.List;

/** Runs a fixed number of calls at a fixed concurrency and records each call's latency. */
final class Load {

    /** One call; {@code i} numbers it 0..n-1 across all workers. */
    @FunctionalInterface
    interface Call {
        void run(int i) throws Exception;
    }

    record Result(String name, int concurrency, int calls, double seconds, Histogram latency) {

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

    static Result run(String name, int concurrency, int calls, Call call) throws Exception {
        Histogram latency = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
        AtomicInteger next = new AtomicInteger();
        ExecutorService workers = Executors.newFixedThreadPool(concurrency);
        long started = System.nanoTime();
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int w = 0; w < concurrency; w++) {
                running.add(workers.submit(() -> {
                    for (int i = next.getAndIncrement(); i < calls; i = next.getAndIncrement()) {
                        long t0 = System.nanoTime();
                        call.run(i);
                        long micros = (System.nanoTime() - t0) / 1000;
                        synchronized (latency) {
                            latency.recordValue(Math.min(micros, latency.getHighestTrackableValue()));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> worker : running) {
                worker.get();
            }
        } finally {
            workers.shutdownNow();
        }
        return new Result(name, concurrency, calls, (System.nanoTime() - started) / 1e9, latency);
    }
}

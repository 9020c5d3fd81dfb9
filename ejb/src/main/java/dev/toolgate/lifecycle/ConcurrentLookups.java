package dev.toolgate.lifecycle;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.ConfigProvider;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * Works the reconcile job's claimed items side by side, at most {@code toolgate.target.<t>.reconcile-concurrency}
 * (default {@value #DEFAULT_PER_TARGET}) per target and instance, so a backlog drains at the target's pace: a
 * look-up mostly waits for the target and a durable commit. Workers come from the container's managed thread
 * factory, with the application's context and no transaction (the target call must have none).
 */
@ApplicationScoped
public class ConcurrentLookups {

    static final int DEFAULT_PER_TARGET = 8;
    private static final Logger LOG = Logger.getLogger(ConcurrentLookups.class.getName());

    @Resource
    ManagedThreadFactory threads;

    Function<String, Integer> limits = ConcurrentLookups::configuredLimit;
    private ExecutorService workers;

    @PostConstruct
    void start() {
        // a thread per lane, so no target's lanes wait for workers another target holds; the lanes are
        // bounded by the limits of the targets in one chunk, and idle threads end after a minute
        workers = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), threads);
    }

    @PreDestroy
    void stop() {
        workers.shutdownNow();
        try {
            workers.awaitTermination(10, TimeUnit.SECONDS); // a look-up in flight ends at its read timeout
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * {@code work} applied to every item once, within each target's limit, no target waiting behind another's slow
     * items; results in the items' order. {@code work} must not throw (an item's failure is its result).
     */
    @SuppressWarnings("unchecked")
    public <T, R> List<R> each(List<T> items, Function<T, String> targetOf, Function<T, R> work) {
        Object[] results = new Object[items.size()];
        Map<String, Queue<Integer>> byTarget = new LinkedHashMap<>();
        for (int i = 0; i < items.size(); i++) {
            byTarget.computeIfAbsent(targetOf.apply(items.get(i)), t -> new ConcurrentLinkedQueue<>()).add(i);
        }
        List<CompletableFuture<Void>> lanes = new ArrayList<>();
        byTarget.forEach((target, queue) -> {
            int width = Math.min(queue.size(), Math.max(1, limits.apply(target)));
            for (int lane = 0; lane < width; lane++) { // each lane works its target's items one after another
                lanes.add(CompletableFuture.runAsync(() -> {
                    for (Integer next = queue.poll(); next != null; next = queue.poll()) {
                        results[next] = work.apply(items.get(next));
                    }
                }, workers));
            }
        });
        CompletableFuture.allOf(lanes.toArray(CompletableFuture[]::new)).join();
        List<R> ordered = new ArrayList<>(results.length);
        for (Object result : results) {
            ordered.add((R) result);
        }
        return ordered;
    }

    private static int configuredLimit(String target) {
        String name = "toolgate.target." + target + ".reconcile-concurrency";
        try {
            return ConfigProvider.getConfig().getOptionalValue(name, Integer.class).orElse(DEFAULT_PER_TARGET);
        } catch (IllegalArgumentException notANumber) { // a typo must not stop reconciliation
            LOG.warning(() -> name + " is not a whole number; using " + DEFAULT_PER_TARGET);
            return DEFAULT_PER_TARGET;
        }
    }
}

package dev.toolgate.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

class ConcurrentLookupsTest {

    private final ConcurrentLookups lookups = new ConcurrentLookups();
    private static final Map<String, Integer> LIMITS = Map.of("1c", 3, "yookassa", 1);
    private final Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> most = new ConcurrentHashMap<>();

    @BeforeEach
    void start() {
        lookups.threads = new PlainThreads();
        lookups.limits = LIMITS::get;
        lookups.start();
    }

    @AfterEach
    void stop() {
        lookups.stop();
    }

    @Test
    void neverRunsMoreLookUpsAtOnceAgainstATargetThanItsLimit() {
        List<String> items = IntStream.range(0, 60).mapToObj(i -> i % 3 == 0 ? "yookassa-" + i : "1c-" + i).toList();

        lookups.each(items, item -> item.substring(0, item.indexOf('-')), this::slowly);

        assertEquals(3, most.get("1c").get(), "1C's limit is reached, not passed");
        assertEquals(1, most.get("yookassa").get());
    }

    @Test
    void returnsEveryItemsResultInTheItemsOrder() {
        List<String> items = IntStream.range(0, 25).mapToObj(i -> "1c-" + i).toList();

        List<String> results = lookups.each(items, item -> "1c", item -> slowly(item).toUpperCase());

        assertEquals(items.stream().map(String::toUpperCase).toList(), results);
    }

    @Test
    void aSlowTargetDoesNotHoldBackAnotherTargetsItems() {
        List<String> items = List.of("yookassa-1", "yookassa-2", "yookassa-3", "1c-1", "1c-2", "1c-3");

        lookups.each(items, item -> item.substring(0, item.indexOf('-')), this::slowly);

        assertEquals(3, most.get("1c").get(), "1C's items ran together while YooKassa's went one by one");
        assertEquals(1, most.get("yookassa").get());
    }

    private String slowly(String item) {
        String target = item.substring(0, item.indexOf('-'));
        int now = running.computeIfAbsent(target, t -> new AtomicInteger()).incrementAndGet();
        most.computeIfAbsent(target, t -> new AtomicInteger()).accumulateAndGet(now, Math::max);
        try {
            // held until the target's lanes have all been seen at once (or for 2 s), so that a loaded machine starting
            // the lanes late cannot keep them from overlapping; a lane too many would still show in most
            long until = System.nanoTime() + 2_000_000_000L;
            while (most.get(target).get() < LIMITS.get(target) && System.nanoTime() < until) {
                Thread.sleep(5);
            }
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        running.get(target).decrementAndGet();
        return item;
    }

}

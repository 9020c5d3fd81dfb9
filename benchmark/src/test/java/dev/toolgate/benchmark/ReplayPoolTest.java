package dev.toolgate.benchmark;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ReplayPoolTest {

    private static final List<String> KEYS = IntStream.range(0, ReplayPool.KEYS).mapToObj(i -> "k" + i).toList();

    @Test
    void everyRoundVisitsEveryKeyOnceInTheSameOrder() {
        ReplayPool pool = new ReplayPool(KEYS);
        List<String> first = IntStream.range(0, ReplayPool.KEYS).mapToObj(i -> pool.next()).toList();
        List<String> second = IntStream.range(0, ReplayPool.KEYS).mapToObj(i -> pool.next()).toList();

        assertEquals(ReplayPool.KEYS, new HashSet<>(first).size(), "no key twice in a round, so none is missed");
        assertEquals(first, second, "each key comes round again only after every other");
    }
}

package dev.toolgate.gateway.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

class IdentityProviderCheckTest {

    private final AtomicBoolean up = new AtomicBoolean(true);
    private final AtomicInteger asked = new AtomicInteger();
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final IdentityProviderCheck check = new IdentityProviderCheck(() -> {
        asked.incrementAndGet();
        return CompletableFuture.completedFuture(up.get());
    }, now::get);

    private void pass(Duration time) {
        now.addAndGet(time.toNanos());
    }

    @Test
    void asksOncePerFiveSecondsWhileItIsDown() {
        up.set(false);
        for (int i = 0; i < 50; i++) {
            assertFalse(check.answers());
        }
        assertEquals(1, asked.get());
    }

    @Test
    void seesAProviderThatCameBackWithinFiveSeconds() {
        up.set(false);
        assertFalse(check.answers());
        up.set(true);
        pass(IdentityProviderCheck.FRESH.minusMillis(1));
        assertFalse(check.answers(), "as last seen");
        pass(Duration.ofMillis(1));
        assertTrue(check.answers());
        assertEquals(2, asked.get());
    }

    @Test
    void asksAgainAfterSomethingWentWrongUnlessItAskedWithinTheLastSecond() {
        assertTrue(check.answers());
        up.set(false);
        assertTrue(check.answersNow(), "asked a moment ago: that answer stands");
        pass(Duration.ofSeconds(1));
        assertFalse(check.answersNow());
        assertFalse(check.answers(), "the fresh answer is kept");
        assertEquals(2, asked.get());
    }

    @Test
    void everyoneArrivingWhileItIsAskedWaitsForTheOneFetchAndNoLongerThanItsTimeout() throws Exception {
        CompletableFuture<Boolean> hung = new CompletableFuture<>(); // headers sent, then nothing
        AtomicInteger fetches = new AtomicInteger();
        // a timeout of 1 s, not the 5 s of production (IdentityProviderCheck.TIMEOUT): it is waited out, and what is tested
        // is that it bounds the wait, not its length
        IdentityProviderCheck slow = new IdentityProviderCheck(() -> {
            fetches.incrementAndGet();
            return hung;
        }, System::nanoTime, Duration.ofSeconds(1));
        ExecutorService people = Executors.newFixedThreadPool(8);
        CountDownLatch ready = new CountDownLatch(8);
        List<Future<Boolean>> answers = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            answers.add(people.submit(() -> {
                ready.countDown();
                ready.await(); // all eight arrive while the one fetch is under way, well within its timeout
                return slow.answers();
            }));
        }
        for (Future<Boolean> answer : answers) {
            assertFalse(answer.get(20, TimeUnit.SECONDS), "a provider that does not finish answering is down");
        }
        people.shutdown();
        assertEquals(1, fetches.get(), "one fetch for all of them");
    }
}

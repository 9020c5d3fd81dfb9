package dev.toolgate.admission;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bound is one per JVM, as in a server: these tests run alone, each call of another agent on a thread of its own. */
@Isolated
class WorkPermitsTest {

    private static final long WAIT_SECONDS = 10;

    private final ExecutorService otherAgent = Executors.newSingleThreadExecutor();

    @AfterEach
    void unbound() {
        otherAgent.shutdownNow();
        WorkPermits.bound(0);
    }

    @Test
    void aCallBeyondTheBoundWaitsUntilOneAtWorkLeaves() throws Exception {
        WorkPermits.bound(1);
        assertTrue(WorkPermits.enter());
        Future<Boolean> second = otherAgent.submit(() -> {
            boolean took = WorkPermits.enter();
            WorkPermits.leave();
            return took;
        });
        assertThrows(TimeoutException.class, () -> second.get(300, TimeUnit.MILLISECONDS), "the second call waits while the first works");
        WorkPermits.leave();
        assertTrue(second.get(WAIT_SECONDS, TimeUnit.SECONDS), "the first left: the second works");
        assertEquals(1, WorkPermits.free());
    }

    @Test
    void aCallWaitingForItsTargetHoldsNoPermitAndTakesOneBackAfter() throws Exception {
        WorkPermits.bound(1);
        assertTrue(WorkPermits.enter());
        CountDownLatch secondWorking = new CountDownLatch(1);
        CountDownLatch secondMayLeave = new CountDownLatch(1);
        Future<?> second = otherAgent.submit(() -> {
            WorkPermits.enter();
            secondWorking.countDown();
            await(secondMayLeave);
            WorkPermits.leave();
        });
        String answer = WorkPermits.awayFor(() -> {
            assertTrue(await(secondWorking), "while the first waits for its target, the second works");
            secondMayLeave.countDown();
            done(second);
            return "the target's answer";
        });
        assertEquals("the target's answer", answer);
        assertEquals(0, WorkPermits.free(), "back from its target, the first holds the permit again");
        second.get(WAIT_SECONDS, TimeUnit.SECONDS);
        WorkPermits.leave();
        assertEquals(1, WorkPermits.free());
    }

    @Test
    void aThreadHoldsOnePermitHoweverOftenItEnters() {
        WorkPermits.bound(2);
        assertTrue(WorkPermits.enter());
        assertFalse(WorkPermits.enter(), "already held: nothing more taken, nothing to give back");
        assertEquals(1, WorkPermits.free());
        WorkPermits.leave();
        assertEquals(2, WorkPermits.free());
    }

    @Test
    void withoutABoundNothingWaitsAndATargetCallRunsAsItIs() {
        WorkPermits.bound(0);
        assertFalse(WorkPermits.enter());
        assertEquals("answer", WorkPermits.awayFor(() -> "answer"));
        assertThrows(IllegalArgumentException.class, () -> WorkPermits.bound(-1));
    }

    @Test
    void aCallerWithoutAPermitCallsItsTargetAsItIs() {
        WorkPermits.bound(1);
        assertEquals("answer", WorkPermits.awayFor(() -> "answer"), "the reconcile job's threads hold none");
        assertEquals(1, WorkPermits.free(), "and gave none back");
    }

    @Test
    void aPermitTakenBeforeTheBoundChangedIsGivenBackToTheOneItCameFrom() {
        WorkPermits.bound(1);
        assertTrue(WorkPermits.enter());
        WorkPermits.bound(3); // a redeploy's new settings
        WorkPermits.leave();
        assertEquals(3, WorkPermits.free(), "the new bound gained no permit from the old one's");
    }

    @Test
    void aCallThatWaitedItsLongestWorksWithoutAPermitAndGivesNoneBack() throws Exception {
        WorkPermits.bound(1);
        assertTrue(WorkPermits.enter());
        long started = System.nanoTime();
        Future<Boolean> second = otherAgent.submit(() -> {
            boolean entered = WorkPermits.enter(); // the one permit stays held: it goes ahead after the wait
            WorkPermits.leave();
            return entered;
        });
        assertTrue(second.get(WAIT_SECONDS, TimeUnit.SECONDS), "it entered, to leave as any command does");
        assertTrue(System.nanoTime() - started >= WorkPermits.WAIT.toNanos(), "it waited for a permit first");
        assertEquals(0, WorkPermits.free(), "it gave back none: the first still holds the one permit");
        WorkPermits.leave();
        assertEquals(1, WorkPermits.free());
    }

    @Test
    void aSettingNamesABoundOnlyAsAWholeNumberOfZeroOrMore() {
        assertEquals(OptionalInt.empty(), WorkPermits.named(null));
        assertEquals(OptionalInt.of(12), WorkPermits.named(" 12 "));
        assertEquals(OptionalInt.of(0), WorkPermits.named("0"));
        for (String bad : new String[] {"-1", "lots", "", "1.5", "9999999", "+3"}) {
            assertEquals(OptionalInt.empty(), WorkPermits.named(bad), bad);
        }
    }

    private static void done(Future<?> call) {
        try {
            call.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static boolean await(CountDownLatch latch) {
        try {
            return latch.await(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}

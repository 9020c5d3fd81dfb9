package dev.toolgate.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.time.Duration;

/**
 * Whether to go on waiting for a process to listen is judged by the CPU it has had, not by the clock alone: on two
 * cores busy with other suites a process started at low priority gets a sliver of one, and its start then takes many
 * times as long by the clock (the simulators, 1.3 s of CPU, bound after 22 s beside four busy loops at nice 10, and after
 * more than 30 s in a CI run, which a clock-only wait of 30 s gave up on).
 */
class StartPatienceTest {

    private static final StartPatience PATIENCE = new StartPatience(Duration.ofSeconds(30), Duration.ofMinutes(10));

    @Test
    void aProcessHeldOffTheCpuIsWaitedForHoweverLongTheClockSays() {
        assertEquals(StartPatience.Verdict.WAIT, PATIENCE.judge(Duration.ofMillis(1_300), Duration.ofSeconds(45)),
                "1.3 s of CPU in 45 s: starved, not failing");
        assertEquals(StartPatience.Verdict.WAIT, PATIENCE.judge(Duration.ofSeconds(29), Duration.ofMinutes(9)));
    }

    @Test
    void aProcessThatHasHadItsCpuWithoutListeningHasFailedToStart() {
        assertEquals(StartPatience.Verdict.CPU_SPENT, PATIENCE.judge(Duration.ofSeconds(30), Duration.ofSeconds(31)));
        assertEquals(StartPatience.Verdict.CPU_SPENT, PATIENCE.judge(Duration.ofSeconds(60), Duration.ofMinutes(11)),
                "both spent: the CPU says more (it worked and did not listen)");
    }

    @Test
    void aProcessThatNeitherRunsNorListensForTheWholeWallIsHung() {
        assertEquals(StartPatience.Verdict.WALL_SPENT, PATIENCE.judge(Duration.ofSeconds(1), Duration.ofMinutes(10)));
    }

    @Test
    void aProcessWhoseCpuCannotBeReadIsJudgedByTheClockAgainstItsCpuShare() {
        assertEquals(StartPatience.Verdict.WAIT, PATIENCE.judge(null, Duration.ofSeconds(29)));
        assertEquals(StartPatience.Verdict.CPU_SPENT, PATIENCE.judge(null, Duration.ofSeconds(30)),
                "no reading: as if every second waited were a second of CPU, the strictest guess");
    }
}

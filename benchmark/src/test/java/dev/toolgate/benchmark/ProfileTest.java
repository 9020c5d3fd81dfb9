package dev.toolgate.benchmark;

import static org.junit.jupiter.api.Assertions.assertTrue;

import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;

class ProfileTest {

    private static volatile long sink;

    @Test
    void chargesASampleToTheTopmostFrameOfOurs() throws Exception {
        Path jfr = Files.createTempFile("profile-test", ".jfr");
        try (Recording recording = new Recording()) {
            recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
            recording.start();
            spinFor(Duration.ofMillis(1500));
            recording.stop();
            recording.dump(jfr);
        }
        String summary = Profile.summary("test", jfr);
        String ours = summary.substring(summary.indexOf("our code:"), summary.indexOf("packages on top of the stack"));
        // the first line under the title is the most charged: the spinning method, whatever JDK code it was in
        String first = ours.lines().skip(1).findFirst().orElse("");
        assertTrue(first.endsWith("dev.toolgate.benchmark.ProfileTest.spinFor"), summary);
        assertTrue(summary.contains("the rest of our code"), summary);
        Files.delete(jfr);
    }

    /**
     * Spins for {@code length} of this thread's CPU time (at most a minute of the clock's): in the full build this module
     * runs beside the end-to-end suites, where 1.5 s of the clock's once gave the sampler nothing to sample.
     */
    private static void spinFor(Duration length) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpuUntil = threads.getCurrentThreadCpuTime() + length.toNanos();
        long giveUp = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        long x = 0;
        while (threads.getCurrentThreadCpuTime() < cpuUntil && System.nanoTime() < giveUp) {
            for (int i = 0; i < 10_000; i++) {
                x += (long) Math.sqrt(x + 17.0);
            }
        }
        sink = x;
    }
}

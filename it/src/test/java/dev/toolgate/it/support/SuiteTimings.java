package dev.toolgate.it.support;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Each suite's wall time and what it started (gateway processes, servers, Keycloak), written to
 * {@code target/suite-timings.txt} after every test plan and repeated in the build log by the pom, so that
 * the next suite that makes the run slower is seen where it happens. Registered as a JUnit
 * {@code TestExecutionListener} in {@code src/test/resources/META-INF/services}.
 *
 * <p>A start is charged to the suite running when it happened: a server shared by several suites appears
 * once, under the suite that happened to start it.
 */
public class SuiteTimings implements TestExecutionListener {

    static final Path TABLE = Path.of("target", "suite-timings.txt");
    private static final String OUTSIDE_ANY_SUITE = "(before the first suite)";

    /** Static: Surefire may run each class in a test plan of its own; the table covers the whole JVM. */
    private static final Map<String, Suite> SUITES = new LinkedHashMap<>();
    /**
     * The suite running on this thread: three lanes run suites side by side ({@link Lane}), and a suite's
     * servers are started on its thread or on threads it started.
     */
    private static final InheritableThreadLocal<String> CURRENT = new InheritableThreadLocal<>() {
        @Override
        protected String initialValue() {
            return OUTSIDE_ANY_SUITE;
        }
    };
    private static long firstStartNanos;
    private static long lastFinishNanos;

    /**
     * Runs {@code work} with what it starts charged to the row {@code row} rather than to the suite running: a server
     * started ahead of the suite that needs it, by a listener, in another suite's time.
     */
    public static void chargedTo(String row, Runnable work) {
        String running = CURRENT.get();
        CURRENT.set(row);
        try {
            work.run();
        } finally {
            CURRENT.set(running);
        }
    }

    /** Records that the running suite started {@code what} (for instance "gateway process micro-gateway"). */
    public static synchronized void started(String what) {
        SUITES.computeIfAbsent(CURRENT.get(), Suite::new).started.add(what);
    }

    @Override
    public void executionStarted(TestIdentifier test) {
        topLevelClass(test).ifPresent(type -> {
            synchronized (SuiteTimings.class) {
                String name = type.getSimpleName();
                CURRENT.set(name);
                Suite suite = SUITES.computeIfAbsent(name, Suite::new);
                suite.startNanos = System.nanoTime();
                suite.lane = Lane.Of.suite(type);
                firstStartNanos = firstStartNanos == 0 ? suite.startNanos : firstStartNanos;
            }
        });
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        synchronized (SuiteTimings.class) {
            boolean failed = result.getStatus() != TestExecutionResult.Status.SUCCESSFUL;
            if (test.isTest()) {
                Suite suite = SUITES.computeIfAbsent(CURRENT.get(), Suite::new);
                suite.tests++;
                suite.failed += failed ? 1 : 0;
            }
            topLevelClass(test).ifPresent(type -> {
                Suite suite = SUITES.computeIfAbsent(type.getSimpleName(), Suite::new);
                lastFinishNanos = System.nanoTime();
                suite.wall = Duration.ofNanos(lastFinishNanos - suite.startNanos);
                suite.failed += failed ? 1 : 0; // its @BeforeAll or @AfterAll failed: no test says so
                CURRENT.set(OUTSIDE_ANY_SUITE);
            });
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan plan) {
        try {
            Files.createDirectories(TABLE.getParent());
            Files.writeString(TABLE, table());
        } catch (IOException e) {
            System.err.println("the suite timings were not written: " + e);
        }
    }

    static synchronized String table() {
        List<Suite> ran = SUITES.values().stream().filter(suite -> suite.wall != null).toList();
        StringBuilder out = new StringBuilder();
        out.append(String.format("suite timings: %d suites, %s of suites' wall time in %s from the first start to the last"
                        + " finish (the lanes side by side)%n", ran.size(),
                seconds(ran.stream().map(suite -> suite.wall).reduce(Duration.ZERO, Duration::plus)),
                seconds(Duration.ofNanos(lastFinishNanos - firstStartNanos))));
        for (int lane : ran.stream().map(suite -> suite.lane).distinct().sorted().toList()) {
            int which = lane;
            out.append(String.format("suite timings: lane %d: %s%n", lane, seconds(ran.stream().filter(suite -> suite.lane == which)
                    .map(suite -> suite.wall).reduce(Duration.ZERO, Duration::plus))));
        }
        // "at": when the suite started, from the first start; a lane's suites should follow each other without gaps
        out.append(String.format("suite timings: %-40s %4s %9s %9s %6s %7s  %s%n", "suite (in the order started)", "lane", "at", "wall",
                "tests", "failed", "started"));
        for (Suite suite : SUITES.values()) {
            out.append(String.format("suite timings: %-40s %4s %9s %9s %6d %7d  %s%n", suite.name, suite.lane == 0 ? "-" : suite.lane,
                    suite.startNanos == 0 ? "-" : seconds(Duration.ofNanos(suite.startNanos - firstStartNanos)),
                    suite.wall == null ? "-" : seconds(suite.wall), suite.tests, suite.failed,
                    suite.started.isEmpty() ? "nothing of its own" : String.join(", ", suite.started)));
        }
        out.append(String.format("suite timings: the ten slowest%n"));
        List<Suite> slowest = new ArrayList<>(ran);
        slowest.sort(Comparator.comparing((Suite suite) -> suite.wall).reversed());
        for (Suite suite : slowest.subList(0, Math.min(10, slowest.size()))) {
            out.append(String.format("suite timings: %-40s %9s%n", suite.name, seconds(suite.wall)));
        }
        return out.toString();
    }

    private static String seconds(Duration wall) {
        return String.format("%.1f s", wall.toMillis() / 1000.0);
    }

    /** A test class that is not nested in another: a suite. */
    private static java.util.Optional<Class<?>> topLevelClass(TestIdentifier test) {
        return test.getSource().filter(ClassSource.class::isInstance).map(ClassSource.class::cast)
                .<Class<?>>map(ClassSource::getJavaClass).filter(type -> type.getEnclosingClass() == null);
    }

    private static final class Suite {
        final String name;
        final List<String> started = new ArrayList<>();
        long startNanos;
        int lane;
        Duration wall;
        int tests;
        int failed;

        Suite(String name) {
            this.name = name;
        }
    }
}

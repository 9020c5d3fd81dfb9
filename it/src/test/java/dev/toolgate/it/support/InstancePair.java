package dev.toolgate.it.support;

import dev.toolgate.launcher.GatewayProcess;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestPlan;

import java.io.IOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Two gateway instances on one journal, for the suites that need two instances and no setting of their own
 * ({@link Shares}): the reconcile job's shared backlog and concurrent duplicates (TwoInstancesIT), a principal's
 * change reaching the other instance's cache of callers (RevocationAcrossInstancesIT). The first of them to run starts
 * the pair; it ends when the last of them in the run is done (two starts of a pair cost about a minute of a lane on two
 * busy cores). They run in one lane: the pair calls the simulators of the lane that started it. Settings: no
 * background reconcile (the tests start runs themselves), retention's purge every 2 s; the caller cache as shipped.
 */
public final class InstancePair {

    /** The pair's journal, a database of its own on the run's PostgreSQL. */
    public static final String DATABASE = "backlog";

    /** A suite that calls the pair; the pair ends after the last such suite of the run. */
    @Target(ElementType.TYPE)
    @Retention(RetentionPolicy.RUNTIME)
    public @interface Shares {
    }

    private static InstancePair shared;
    /** The suites of the run marked {@link Shares} that have not finished; unknown (no plan counted) ends it after each. */
    private static int users;

    public final GatewayProcess first;
    public final GatewayProcess second;
    private final Map<String, Long> logStarts;

    private InstancePair(GatewayProcess first, GatewayProcess second, Map<String, Long> logStarts) {
        this.first = first;
        this.second = second;
        this.logStarts = logStarts;
    }

    /** Counts the suites of the run that share the pair, as the run begins. */
    public static final class Count implements TestExecutionListener {

        @Override
        public void testPlanExecutionStarted(TestPlan plan) {
            long sharing = plan.getRoots().stream().flatMap(root -> plan.getDescendants(root).stream())
                    .map(test -> test.getSource().orElse(null))
                    .filter(source -> source instanceof ClassSource type && type.getJavaClass().isAnnotationPresent(Shares.class))
                    .map(source -> ((ClassSource) source).getJavaClass()).distinct().count();
            synchronized (InstancePair.class) {
                users = (int) sharing;
            }
        }
    }

    /** The pair, both instances ready to take calls: started by the first suite that asks. */
    public static synchronized InstancePair get() throws Exception {
        if (shared == null) {
            Map<String, String> config = TestStack.configFor(TestStack.newDatabase(DATABASE));
            config.put("toolgate.reconcile.interval-seconds", "0"); // the tests start the runs themselves
            config.put("toolgate.retention.purge-interval-seconds", "2");
            Map<String, Long> logStarts = new java.util.HashMap<>();
            for (String name : java.util.List.of("a", "b")) { // earlier runs' gateways appended to the same logs
                Path log = log(name);
                logStarts.put(name, Files.exists(log) ? Files.size(log) : 0L);
            }
            GatewayProcess first = TestStack.startGateway(config, "backlog-gateway-a");
            GatewayProcess second = null;
            try {
                second = TestStack.startGateway(config, "backlog-gateway-b");
                first.awaitReady();
                second.awaitReady();
            } catch (Exception | Error e) {
                TestStack.discard(first);
                TestStack.discard(second);
                throw e;
            }
            shared = new InstancePair(first, second, logStarts);
        }
        return shared;
    }

    /** A suite that shares the pair is done with it: the last of the run ends it. */
    public static synchronized void release() throws InterruptedException {
        users--;
        if (users <= 0 && shared != null) {
            TestStack.discard(shared.first);
            TestStack.discard(shared.second);
            shared = null;
        }
    }

    /** The lines instance {@code name} ({@code a} or {@code b}) has logged since this pair started that say {@code words}. */
    public long linesSaying(String name, String words) throws IOException {
        byte[] all = Files.readAllBytes(log(name));
        int from = logStarts.get(name).intValue();
        return new String(all, from, all.length - from, StandardCharsets.ISO_8859_1).lines().filter(line -> line.contains(words)).count();
    }

    private static Path log(String name) {
        return Path.of("target", "backlog-gateway-" + name + ".log");
    }
}

package dev.toolgate.it.console;

import dev.toolgate.it.support.Browser;
import dev.toolgate.it.support.Keycloak;
import dev.toolgate.it.support.Lane;
import dev.toolgate.it.support.MicroSuite;
import dev.toolgate.it.support.SignsPeopleIn;
import dev.toolgate.it.support.SuiteTimings;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.openqa.selenium.By;

import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A Keycloak and a gateway whose console signs people in at it, for one test class. No background reconcile
 * job: in these stories an operator starts the runs. Idle expiry is 30 s, so a test can watch a session expire.
 */
public final class ConsoleStack implements AutoCloseable {

    static final int IDLE_SECONDS = 30;
    /** ConsoleIT's journal, and the only one whose gateway {@link Ahead} starts. */
    static final String DATABASE = "console";

    /** ConsoleIT's gateway, started ahead of it ({@link Ahead}) naming that Keycloak; taken by its start. */
    private static CompletableFuture<Started> ahead;

    private record Started(Keycloak keycloak, GatewayProcess gateway) {
    }

    final Keycloak keycloak;
    final GatewayProcess gateway;

    private ConsoleStack(Keycloak keycloak, GatewayProcess gateway) {
        this.keycloak = keycloak;
        this.gateway = gateway;
    }

    /**
     * The gateway starts while Keycloak does (the run's, started with it): the console needs only the
     * provider's address to deploy, and asks the provider itself when someone signs in. In a run that holds ConsoleIT
     * its gateway has started in the background already ({@link Ahead}): this waits for that one.
     */
    static ConsoleStack start(String database) throws Exception {
        CompletableFuture<Started> ahead = database.equals(DATABASE) ? takeAhead() : null;
        GatewayProcess gateway = null;
        try {
            Started started;
            if (ahead != null) {
                started = awaited(ahead);
            } else {
                Keycloak launched = Keycloak.launched();
                started = new Started(launched, TestStack.readyGateway(config(database, launched), database));
            }
            gateway = started.gateway();
            Keycloak keycloak = Keycloak.start();
            if (keycloak != started.keycloak()) {
                // the Keycloak it names did not start, and the one started since is elsewhere: the console must name it
                TestStack.discard(gateway);
                gateway = null;
                gateway = TestStack.readyGateway(config(database, keycloak), database);
            }
            return new ConsoleStack(keycloak, gateway);
        } catch (Exception | Error e) {
            TestStack.discard(gateway);
            throw e;
        }
    }

    private static Map<String, String> config(String database, Keycloak keycloak) throws Exception {
        Map<String, String> config = TestStack.configFor(TestStack.newDatabase(database));
        config.put("toolgate.reconcile.interval-seconds", "0");
        config.put("toolgate.reconcile.settle-seconds", "1");
        config.put("toolgate.console.oidc.provider-uri", keycloak.issuer());
        config.put("toolgate.console.oidc.client-id", keycloak.clientId());
        config.put("toolgate.console.oidc.client-secret", keycloak.clientSecret());
        config.put("toolgate.console.idle-timeout-seconds", Integer.toString(IDLE_SECONDS));
        config.put("toolgate.console.trace-url", "https://traces.example/trace/{trace_id}");
        return config;
    }

    private static synchronized CompletableFuture<Started> takeAhead() {
        CompletableFuture<Started> taken = ahead;
        ahead = null;
        return taken;
    }

    private static Started awaited(CompletableFuture<Started> started) throws Exception {
        try {
            return started.join();
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    /**
     * Starts ConsoleIT's gateway in the background, when the run holds ConsoleIT, as the first suite of lane 1 that is
     * neither a Micro suite nor one that signs people in begins: after the run's busiest minute, and minutes before
     * ConsoleIT (support.RunOrder), whose own start then finds it ready instead of booting it in lane 1's time. It waits
     * for no call meanwhile: no background job, its console asks Keycloak nothing until someone signs in.
     */
    public static final class Ahead implements TestExecutionListener {

        private volatile boolean pending;

        @Override
        public void testPlanExecutionStarted(TestPlan plan) {
            pending = plan.getRoots().stream().flatMap(root -> plan.getDescendants(root).stream())
                    .map(test -> test.getSource().orElse(null))
                    .anyMatch(source -> source instanceof ClassSource type && type.getJavaClass() == ConsoleIT.class);
        }

        /** A gateway started ahead for a ConsoleIT that never took it (the run ended first) is ended with the run. */
        @Override
        public void testPlanExecutionFinished(TestPlan plan) {
            CompletableFuture<Started> untaken = takeAhead();
            if (untaken != null) {
                try {
                    TestStack.discard(untaken.join().gateway());
                } catch (java.util.concurrent.CompletionException | InterruptedException e) {
                    // it did not start, or the run is being torn down: nothing of it is left to end
                }
            }
        }

        @Override
        public void executionStarted(TestIdentifier test) {
            if (!pending || !(test.getSource().orElse(null) instanceof ClassSource source)) {
                return;
            }
            Class<?> suite = source.getJavaClass();
            if (suite.getEnclosingClass() != null || Lane.Of.suite(suite) != 1 || MicroSuite.class.isAssignableFrom(suite)
                    || suite.isAnnotationPresent(SignsPeopleIn.class)) {
                return;
            }
            pending = false;
            CompletableFuture<Started> started = new CompletableFuture<>();
            synchronized (ConsoleStack.class) {
                ahead = started;
            }
            Thread starting = new Thread(() -> SuiteTimings.chargedTo("(ahead of ConsoleIT)", () -> {
                try {
                    Keycloak launched = Keycloak.launched();
                    started.complete(new Started(launched, TestStack.readyGateway(config(DATABASE, launched), DATABASE)));
                } catch (Throwable e) {
                    started.completeExceptionally(e);
                }
            }), "console-gateway-ahead");
            starting.setDaemon(true);
            starting.start();
        }
    }

    String url(String path) {
        return gateway.baseUrl() + path;
    }

    /** A fresh browser, signed in as {@code user} at the identity provider, on the console's home page. */
    Browser signedIn(String user) {
        Browser browser = new Browser();
        try {
            browser.open(url("/console/")).signIn(user, user + "-pw");
            browser.waitFor(By.id("signed-in-as"));
            return browser;
        } catch (RuntimeException e) {
            browser.close();
            throw e;
        }
    }

    @Override
    public void close() throws Exception {
        try {
            TestStack.discard(gateway);
        } finally {
            keycloak.close();
        }
    }
}

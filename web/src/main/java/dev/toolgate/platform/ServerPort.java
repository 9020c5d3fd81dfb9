package dev.toolgate.platform;

import java.lang.annotation.Annotation;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Closes the server's HTTP port from inside the application, where the server allows it.
 *
 * <p>Why: Payara stops the application before it closes its HTTP listener, so a call that arrives while the
 * application is torn down is answered by the server itself (a 500 with no body, or an HTML 503), never by the
 * gateway — RecoveryIT's checker saw both in an orderly restart under load. Closed first, the port refuses such a
 * call, which an agent and a balancer both read as "this instance is gone: try again". Payara runs an {@code asadmin}
 * command for it ({@code set …http-listener.enabled=false}) through its command runner, found by reflection because
 * it is the server's API, not Jakarta EE's. Elsewhere (WildFly, or a Payara that hides the runner) there is nothing
 * to close and {@link #find} is empty: the server's own graceful shutdown is the operator's to configure
 * (docs/operations.md, "Stopping and starting").
 */
public final class ServerPort {

    private static final Logger LOG = Logger.getLogger(ServerPort.class.getName());
    private static final String LISTENER = "configs.config.server-config.network-config.network-listeners.network-listener.http-listener";
    /** Payara's shutdown grace ({@code --shutdowngrace} / this property): how long the server serves on after SIGTERM. */
    private static final String GRACE = "fish.payara.shutdowngrace";

    private final Object runner;
    private final java.lang.reflect.Method run;

    private ServerPort(Object runner, java.lang.reflect.Method run) {
        this.runner = runner;
        this.run = run;
    }

    /** The port of the server this application runs in, if it can be closed from here. */
    public static Optional<ServerPort> find() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try {
            Class<?> globals = Class.forName("org.glassfish.internal.api.Globals", true, loader);
            Object locator = globals.getMethod("getDefaultBaseServiceLocator").invoke(null);
            Class<?> runnerType = Class.forName("org.glassfish.embeddable.CommandRunner", true, loader);
            Object runner = locator.getClass().getMethod("getService", Class.class, Annotation[].class)
                    .invoke(locator, runnerType, new Annotation[0]);
            if (runner == null) {
                return Optional.empty();
            }
            return Optional.of(new ServerPort(runner, runnerType.getMethod("run", String.class, String[].class)));
        } catch (ReflectiveOperationException | LinkageError | RuntimeException notPayara) {
            LOG.fine(() -> "the server's HTTP port cannot be closed from the application: " + notPayara);
            return Optional.empty();
        }
    }

    /** How long the server goes on serving after it is told to stop, as it was configured; zero if not. */
    public static long graceMillis() {
        try {
            return Math.max(0, Long.parseLong(System.getProperty(GRACE, "0")));
        } catch (NumberFormatException unset) {
            return 0;
        }
    }

    /** Stops the server accepting connections on its HTTP port; calls already accepted go on. */
    public void close() {
        try {
            run.invoke(runner, "set", new String[] {LISTENER + ".enabled=false"});
        } catch (ReflectiveOperationException | RuntimeException e) {
            System.err.println("toolgate: could not close the HTTP port before stopping: " + e); // JUL may be reset by now
        }
    }
}

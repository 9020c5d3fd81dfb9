package dev.toolgate.it;

import dev.toolgate.launcher.LocalStack;
import dev.toolgate.simulator.SimulatorClient;
import dev.toolgate.simulator.Simulators;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Starts, once per test JVM, a fresh PostgreSQL and the simulators on free ports, and tells the
 * Payara Micro container (started later by Arquillian, in its own process) where they are.
 */
public class TestStack implements LauncherSessionListener {

    private static EmbeddedPostgres postgres;
    private static Simulators simulators;
    private static Map<String, String> gatewayConfig;

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        try {
            postgres = EmbeddedPostgres.builder().setServerConfig("max_connections", "300").start();
            simulators = Simulators.start(0);
            gatewayConfig = LocalStack.gatewayConfig(LocalStack.database(postgres, "toolgate"), simulators.baseUrl());
        } catch (Exception e) {
            throw new IllegalStateException("the test stack did not start", e);
        }
        System.setProperty("payara.cmdOptions", "-Xmx768m " + gatewayConfig.entrySet().stream()
                .map(setting -> "-D" + setting.getKey() + "=" + setting.getValue()).collect(Collectors.joining(" ")));
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        if (simulators != null) {
            simulators.close();
        }
        try {
            if (postgres != null) {
                postgres.close();
            }
        } catch (Exception e) {
            System.err.println("postgres did not stop cleanly: " + e);
        }
    }

    static Map<String, String> gatewayConfig() {
        return gatewayConfig;
    }

    static SimulatorClient targets() {
        return new SimulatorClient(simulators.baseUrl());
    }

    static Path runtime() {
        return Path.of(System.getProperty("toolgate.runtime"));
    }

    /** Rows in the journal: a refused request must leave this unchanged. */
    static long journalRows() throws SQLException {
        try (Connection c = postgres.getDatabase("postgres", "toolgate").getConnection();
             ResultSet count = c.createStatement().executeQuery("SELECT count(*) FROM agent_operation_log")) {
            count.next();
            return count.getLong(1);
        }
    }
}

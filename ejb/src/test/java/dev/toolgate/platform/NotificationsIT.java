package dev.toolgate.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

import java.net.URL;
import java.net.URLClassLoader;
import java.sql.Connection;
import java.sql.Driver;
import java.util.List;
import java.util.Properties;

/**
 * The principal-change listener hears announcements on a connection of the application's own copy of the driver, and on one of a
 * copy loaded apart from it, as a server-managed pool on WildFly runs the driver deployed beside the EAR.
 */
class NotificationsIT {

    /** The principal-change listener's channel; any would do. */
    private static final String CHANNEL = "toolgate_principal";
    private static EmbeddedPostgres postgres;

    @BeforeAll
    static void start() throws Exception {
        postgres = EmbeddedPostgres.builder().start();
    }

    @AfterAll
    static void stop() throws Exception {
        postgres.close();
    }

    @Test
    void hearsAnnouncementsOnTheApplicationsOwnDriver() throws Exception {
        try (Connection connection = postgres.getPostgresDatabase().getConnection()) {
            assertEquals(List.of("principal-1"), announcedAndHeard(connection));
        }
    }

    @Test
    void hearsAnnouncementsOnACopyOfTheDriverLoadedApartFromTheApplications() throws Exception {
        URL driverJar = PGConnection.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader apart = new URLClassLoader(new URL[] {driverJar}, ClassLoader.getPlatformClassLoader())) {
            Driver driver = (Driver) apart.loadClass("org.postgresql.Driver").getDeclaredConstructor().newInstance();
            Properties login = new Properties();
            login.setProperty("user", "postgres");
            try (Connection connection = driver.connect("jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres", login)) {
                assertFalse(connection.isWrapperFor(PGConnection.class), "not the application's PGConnection: the case at hand");
                assertEquals(List.of("principal-1"), announcedAndHeard(connection));
            }
        }
    }

    private static List<String> announcedAndHeard(Connection connection) throws Exception {
        Notifications notifications = Notifications.on(connection);
        connection.createStatement().execute("LISTEN " + CHANNEL);
        connection.createStatement().execute("SELECT pg_notify('" + CHANNEL + "', 'principal-1')");
        return notifications.await(5_000);
    }
}

package dev.toolgate.platform;

import org.postgresql.ds.PGSimpleDataSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Optional;

/**
 * The journal's PostgreSQL, configured the same way on every server. WildFly hands the {@code ${MPCONFIG=…}} values
 * of {@code JournalSchema}'s {@code @DataSourceDefinition} over unresolved: such a value is ignored and the setting
 * read from the system property or environment, so one EAR needs no server-side datasource. Still needed:
 * {@code EarOnWildFlyWithItsOwnDataSourceIT}.
 */
public class JournalDataSource extends PGSimpleDataSource {

    private static final long serialVersionUID = 1L;

    /** Longer than a healthy connect takes by far: the server is down or unreachable, and the agent is better told so (503). */
    static final int CONNECT_TIMEOUT_SECONDS = 2;
    /**
     * Far above the journal's longest statements, yet a black-holed connection frees its request within seconds; its
     * transaction rolls back and an unrecorded outcome is looked up by key later.
     */
    static final int SOCKET_TIMEOUT_SECONDS = 5;

    public JournalDataSource() {
        setApplicationName("toolgate"); // how a DBA tells our sessions apart in pg_stat_activity (a URL parameter wins)
        int connect = seconds("toolgate.db.connect-timeout-seconds", CONNECT_TIMEOUT_SECONDS);
        setConnectTimeout(connect);
        super.setLoginTimeout(connect); // connect + TLS + authentication: a server that accepts and then says nothing
        setSocketTimeout(seconds("toolgate.db.socket-timeout-seconds", SOCKET_TIMEOUT_SECONDS));
        // a server error's "Detail:" can quote the failing row (a payload): keep it out of exception messages
        setLogServerErrorDetail(false);
        setTcpKeepAlive(true); // an idle pooled connection to a vanished server is noticed by the kernel too
        setting("toolgate.db.url").ifPresent(super::setUrl);
        setting("toolgate.db.user").ifPresent(super::setUser);
        setting("toolgate.db.password").ifPresent(super::setPassword);
    }

    public static Optional<String> setting(String name) {
        String value = System.getProperty(name);
        if (!usable(value)) {
            value = System.getenv(name.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT));
        }
        return Optional.ofNullable(usable(value) ? value : null);
    }

    private static int seconds(String name, int fallback) {
        return setting(name).map(String::strip).map(Integer::parseInt).orElse(fallback);
    }

    private static boolean usable(String value) {
        return value != null && !value.isBlank() && !value.contains("${");
    }

    @Override
    public void setUrl(String url) {
        if (usable(url)) {
            super.setUrl(url);
        }
    }

    @Override
    public void setURL(String url) {
        setUrl(url);
    }

    @Override
    public void setUser(String user) {
        if (usable(user)) {
            super.setUser(user);
        }
    }

    @Override
    public void setPassword(String password) {
        if (usable(password)) {
            super.setPassword(password);
        }
    }

    /** A pool that passes {@code @DataSourceDefinition}'s default (0: wait for ever) keeps the configured bound. */
    @Override
    public void setLoginTimeout(int seconds) {
        if (seconds > 0) {
            super.setLoginTimeout(seconds);
        }
    }

    /** The configured credentials, not the definition's unresolved ones; the session is replaced at hand-out if it ended. */
    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        String login = usable(user) ? user : getUser();
        String secret = usable(password) ? password : getPassword();
        return new ReopeningConnection(super.getConnection(login, secret), () -> super.getConnection(login, secret),
                getConnectTimeout());
    }
}

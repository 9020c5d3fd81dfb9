package dev.toolgate.platform;

import org.postgresql.ds.PGSimpleDataSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Optional;

/**
 * The journal's PostgreSQL, configured the same way on every server. {@code journal.JournalSchema} names this
 * class in its {@code @DataSourceDefinition}, whose {@code ${MPCONFIG=…}} values Payara resolves and
 * WildFly (without annotation property replacement) hands over verbatim: a value that is still an
 * unresolved expression, or empty, is ignored, and the setting is read from the system property
 * ({@code toolgate.db.url}) or the environment ({@code TOOLGATE_DB_URL}) instead. So one EAR needs no
 * server-side datasource on either server.
 *
 * <p>It also bounds how long a journal that went away can hold a request ({@code toolgate.db.connect-timeout-seconds},
 * {@code .socket-timeout-seconds}; docs/database-outage.md), so the gateway answers 503 within seconds.
 *
 * <p>Still needed while WildFly leaves the definition's expressions unresolved and builds its pool without
 * validation: {@code EarOnWildFlyWithItsOwnDataSourceIT} (it) deploys the EAR on WildFly with this datasource
 * alone; {@code JournalDataSourceTest} pins what is taken and what is ignored.
 */
public class JournalDataSource extends PGSimpleDataSource {

    private static final long serialVersionUID = 1L;

    /**
     * 2 s: a PostgreSQL on the same network accepts and authenticates in milliseconds; a connect that
     * takes longer is to a server that is down or unreachable, and the agent is better told so (503).
     */
    static final int CONNECT_TIMEOUT_SECONDS = 2;
    /**
     * 5 s: the journal's longest statements (the reconcile claim and the purge, both by index with a
     * LIMIT; a row lock held by another short journal transaction) take milliseconds, tens at worst with
     * a million operations; 5 s is far above that, yet a black-holed connection (no RST, no answer) frees
     * its request within seconds. A statement cut off by it fails like a lost connection: its
     * transaction rolls back, and an unrecorded outcome is looked up by key later.
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

    /** A setting by its MicroProfile Config name: the system property, else the environment variable. */
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

    /**
     * A pool that passes the definition's (unresolved) credentials along gets the configured ones instead. The
     * connection checks its session when a pool hands it out, and replaces one PostgreSQL ended
     * ({@link ReopeningConnection}): what a pool that does not validate (WildFly's, for this definition) needs to
     * come back by itself after a PostgreSQL restart.
     */
    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        String login = usable(user) ? user : getUser();
        String secret = usable(password) ? password : getPassword();
        return new ReopeningConnection(super.getConnection(login, secret), () -> super.getConnection(login, secret),
                getConnectTimeout());
    }
}

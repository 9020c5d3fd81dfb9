package dev.toolgate.journal;

import org.postgresql.ds.PGSimpleDataSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Optional;

/**
 * The journal's PostgreSQL, configured the same way on every server. {@link JournalSchema} names this
 * class in its {@code @DataSourceDefinition}, whose {@code ${MPCONFIG=…}} values Payara resolves and
 * WildFly (without annotation property replacement) hands over verbatim: a value that is still an
 * unresolved expression, or empty, is ignored, and the setting is read from the system property
 * ({@code toolgate.db.url}) or the environment ({@code TOOLGATE_DB_URL}) instead. So one EAR needs no
 * server-side datasource on either server.
 */
public class JournalDataSource extends PGSimpleDataSource {

    private static final long serialVersionUID = 1L;

    public JournalDataSource() {
        setApplicationName("toolgate"); // how a DBA tells our sessions apart in pg_stat_activity (a URL parameter wins)
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

    /** A pool that passes the definition's (unresolved) credentials along gets the configured ones instead. */
    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        return super.getConnection(usable(user) ? user : getUser(), usable(password) ? password : getPassword());
    }
}

package dev.toolgate.platform;

import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import java.util.Optional;

/**
 * Where the journal's connections come from. By default the EAR's own datasource ({@code java:app/jdbc/toolgate},
 * settings from {@code toolgate.db.*}), so a deployment needs nothing on the server. In production a team usually
 * wants the pool to be the server's: URL, credentials and pool size in the server's configuration (which on both
 * servers may in turn read the environment), visible in its monitoring. {@code toolgate.db.datasource} names such a
 * datasource by JNDI, and then JPA (through {@link EclipseLinkLogin}) and the plain JDBC of the migrations, the first
 * look at a key and the principal-change listener (through {@link #orElse}) all use it; the EAR's own datasource is
 * then defined but never connected.
 *
 * <p>Here because the name is the server's: both EAR suites ({@code EarOnPayaraServerIT}, {@code EarOnWildFlyIT},
 * through {@code EarSuite}) deploy with a server-managed pool and check its size under concurrent calls.
 */
public final class ServerDataSource {

    static final String SETTING = "toolgate.db.datasource";

    private ServerDataSource() {
    }

    /** The JNDI name of the server-managed datasource, when one is configured. */
    public static Optional<String> name() {
        return JournalDataSource.setting(SETTING);
    }

    /** The datasource the journal uses: the configured server one, else {@code builtIn}. */
    public static DataSource orElse(DataSource builtIn) {
        return name().map(ServerDataSource::lookup).orElse(builtIn);
    }

    /** Looked up now, so a misspelt name fails the deployment with that name in the message. */
    static DataSource lookup(String name) {
        try {
            return InitialContext.doLookup(name);
        } catch (NamingException | ClassCastException e) {
            throw new IllegalStateException(SETTING + " names " + name + ", which is not a datasource this server knows: "
                    + e.getMessage(), e);
        }
    }
}

package dev.toolgate.platform;

import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import java.util.Optional;

/**
 * Where the journal's connections come from: by default the EAR's own datasource ({@code java:app/jdbc/toolgate}),
 * so a deployment needs nothing on the server; {@code toolgate.db.datasource} names a server-managed one by JNDI
 * instead (its settings and monitoring the server's), and then JPA (through {@link EclipseLinkLogin}) and every plain
 * JDBC use (through {@link #orElse}) take it; the EAR's own is then defined but never connected. Both EAR suites
 * ({@code EarSuite}) deploy with a server-managed pool.
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

package dev.toolgate.platform;

import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import java.util.Optional;

/**
 * Where the journal's connections come from: the EAR's own datasource ({@code java:app/jdbc/toolgate}) by default, so a
 * deployment needs nothing on the server, or the server-managed one {@code toolgate.db.datasource} names, for JPA
 * ({@link EclipseLinkLogin}) and plain JDBC ({@link #orElse}) alike. {@code EarSuite} deploys with the latter.
 */
public final class ServerDataSource {

    static final String SETTING = "toolgate.db.datasource";

    private ServerDataSource() {
    }

    public static Optional<String> name() {
        return JournalDataSource.setting(SETTING);
    }

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

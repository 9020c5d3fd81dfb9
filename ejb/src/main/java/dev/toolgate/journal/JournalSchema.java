package dev.toolgate.journal;

import dev.toolgate.platform.JournalDataSource;
import dev.toolgate.platform.ServerDataSource;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.ejb.Lock;
import jakarta.ejb.LockType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import org.flywaydb.core.Flyway;
import org.eclipse.microprofile.config.ConfigProvider;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.output.MigrateResult;

import javax.sql.DataSource;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Brings the journal schema up to date before the application serves a request. Flyway holds a
 * PostgreSQL advisory lock while it migrates, so instances starting together migrate once.
 *
 * <p>The datasource is defined here, by the application, so the one EAR needs no server-side
 * resource; its settings come from MicroProfile Config ({@code TOOLGATE_DB_URL} etc. in the environment).
 * A server-managed datasource takes its place when {@code toolgate.db.datasource} names one
 * ({@link ServerDataSource}).
 *
 * <p>The pool must find out by itself that PostgreSQL restarted (docs/database-outage.md): a pooled connection
 * whose session the restart ended looks alive until it is used, and a pool without validation hands it out again
 * and again to every read outside a transaction (readiness, authentication, the replay check), since only a
 * transaction that cannot begin on one makes the pool evict it. So on Payara (Micro and Server) a connection is
 * checked before it is handed out — {@code Connection.isValid}, one empty query, at most once a second per
 * connection — and one that fails empties the pool of all its idle connections, which a restart killed
 * together; a caller waits at most 2 s for a free connection, as on the server-managed pools ({@code deploy/}).
 * These are Payara's own pool properties; WildFly ignores them (logging that {@code JournalDataSource} has no
 * such setters) and builds the pool of an {@code @DataSourceDefinition} without validation:
 * {@link JournalDataSource} checks its connections itself there.
 */
@DataSourceDefinition(
        name = "java:app/jdbc/toolgate",
        className = "dev.toolgate.platform.JournalDataSource",
        url = "${MPCONFIG=toolgate.db.url}",
        user = "${MPCONFIG=toolgate.db.user}",
        password = "${MPCONFIG=toolgate.db.password}",
        minPoolSize = 2,
        maxPoolSize = 32,
        properties = {
                "fish.payara.is-connection-validation-required=true",
                "fish.payara.connection-validation-method=custom-validation",
                "fish.payara.validation-classname=org.glassfish.api.jdbc.validation.JDBC40ConnectionValidation",
                "fish.payara.validate-atmost-once-period-in-seconds=1",
                "fish.payara.fail-all-connections=true",
                "fish.payara.max-wait-time-in-millis=2000"})
@Singleton
@Startup
public class JournalSchema {

    private static final Logger LOG = Logger.getLogger(JournalSchema.class.getName());

    @Resource(lookup = "java:app/jdbc/toolgate")
    DataSource dataSource;

    private volatile String version;

    @PostConstruct
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED) // Flyway commits its own DDL transactions
    void migrate() {
        Flyway flyway = Flyway.configure(JournalSchema.class.getClassLoader())
                .dataSource(ServerDataSource.orElse(dataSource))
                .locations("classpath:db/migration")
                .load();
        version = carriedVersion(flyway);
        if (ConfigProvider.getConfig().getOptionalValue("toolgate.db.migrate-at-start", Boolean.class).orElse(true)) {
            MigrateResult result = flyway.migrate();
            LOG.info(() -> "journal schema at version " + version + " (" + result.migrationsExecuted + " migrations applied now)");
        } else { // the team migrates by its own command: until it has, readiness says DOWN
            MigrationInfo current = flyway.info().current();
            String held = current == null ? "none" : current.getVersion().getVersion();
            LOG.log(held.equals(version) ? Level.INFO : Level.WARNING, () -> "journal schema at version " + held
                    + "; this release needs " + version + (held.equals(version) ? "" : ": run the migration command, not ready until then"));
        }
    }

    /**
     * The newest migration this release carries. Flyway's {@code info().all()} also lists what a newer release applied,
     * which this one does not have and must not take for its own: readiness would then call a newer schema its own.
     */
    static String carriedVersion(Flyway flyway) {
        MigrationInfo[] carried = java.util.Arrays.stream(flyway.info().all()).filter(m -> m.getState().isResolved())
                .toArray(MigrationInfo[]::new);
        return carried.length == 0 ? null : carried[carried.length - 1].getVersion().getVersion();
    }

    /** The schema version this release needs (the newest migration it carries). */
    @Lock(LockType.READ)
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public String version() {
        return version;
    }
}

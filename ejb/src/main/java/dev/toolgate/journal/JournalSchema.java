package dev.toolgate.journal;

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
 * ({@link JournalConnections}).
 */
@DataSourceDefinition(
        name = "java:app/jdbc/toolgate",
        className = "dev.toolgate.journal.JournalDataSource",
        url = "${MPCONFIG=toolgate.db.url}",
        user = "${MPCONFIG=toolgate.db.user}",
        password = "${MPCONFIG=toolgate.db.password}",
        minPoolSize = 2,
        maxPoolSize = 32)
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
                .dataSource(JournalConnections.dataSource(dataSource))
                .locations("classpath:db/migration")
                .load();
        MigrationInfo[] known = flyway.info().all();
        version = known.length == 0 ? null : known[known.length - 1].getVersion().getVersion(); // what this release needs
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

    /** The schema version this release needs (the newest migration it carries). */
    @Lock(LockType.READ)
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public String version() {
        return version;
    }
}

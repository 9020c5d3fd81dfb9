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
import org.flywaydb.core.api.output.MigrateResult;

import javax.sql.DataSource;
import java.util.logging.Logger;

/**
 * Brings the journal schema up to date before the application serves a request. Flyway holds a
 * PostgreSQL advisory lock while it migrates, so instances starting together migrate once.
 *
 * <p>The datasource is defined here, by the application, so the one EAR needs no server-side
 * resource; its settings come from MicroProfile Config ({@code TOOLGATE_DB_URL} etc. in the environment).
 */
@DataSourceDefinition(
        name = "java:app/jdbc/toolgate",
        className = "org.postgresql.ds.PGSimpleDataSource",
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
        MigrateResult result = Flyway.configure(JournalSchema.class.getClassLoader())
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                .load()
                .migrate();
        version = result.targetSchemaVersion;
        LOG.info(() -> "journal schema at version " + result.targetSchemaVersion + " (" + result.migrationsExecuted
                + " migrations applied now)");
    }

    /** The schema version this instance migrated to (or found) at start-up. */
    @Lock(LockType.READ)
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public String version() {
        return version;
    }
}

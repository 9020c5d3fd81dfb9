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
 * Migrates the journal schema before the application serves a request; Flyway's advisory lock makes instances
 * starting together migrate once. The datasource is defined here so one EAR needs no server-side resource
 * (settings from MicroProfile Config); {@code toolgate.db.datasource} names a server-managed one instead
 * ({@link ServerDataSource}).
 *
 * <p>A pooled connection whose session a PostgreSQL restart ended looks alive until used (docs/database-outage.md),
 * so Payara validates each connection before handing it out, at most once a second, and one failure empties the
 * idle pool. WildFly ignores these properties and does not validate: {@link JournalDataSource} checks there.
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

    /** The newest migration this release carries: {@code info().all()} also lists a newer release's, which is not ours. */
    static String carriedVersion(Flyway flyway) {
        MigrationInfo[] carried = java.util.Arrays.stream(flyway.info().all()).filter(m -> m.getState().isResolved())
                .toArray(MigrationInfo[]::new);
        return carried.length == 0 ? null : carried[carried.length - 1].getVersion().getVersion();
    }

    @Lock(LockType.READ)
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public String version() {
        return version;
    }
}

package dev.toolgate.launcher;

import dev.toolgate.platform.JournalDataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

import java.util.Locale;

/**
 * Brings a journal's schema up to date from the command line, for teams whose gateways run with
 * {@code toolgate.db.migrate-at-start=false}: the same migrations the gateway carries, the same
 * settings ({@code TOOLGATE_DB_URL}, {@code TOOLGATE_DB_USER}, {@code TOOLGATE_DB_PASSWORD}).
 */
public final class MigrateJournal {

    private MigrateJournal() {
    }

    public static void main(String[] args) {
        MigrateResult result = Flyway.configure(MigrateJournal.class.getClassLoader())
                .dataSource(setting("toolgate.db.url"), setting("toolgate.db.user"), setting("toolgate.db.password"))
                .locations("classpath:db/migration")
                .load()
                .migrate();
        System.out.println("journal schema at version " + result.targetSchemaVersion + " (" + result.migrationsExecuted
                + " migrations applied now)");
    }

    /** The same look-up the gateway's datasource makes: system property, else environment variable. */
    private static String setting(String name) {
        return JournalDataSource.setting(name).orElseThrow(() -> new IllegalArgumentException(
                "set " + name + " (or " + name.replace('.', '_').toUpperCase(Locale.ROOT) + ")"));
    }
}

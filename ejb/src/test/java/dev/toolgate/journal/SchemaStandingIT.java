package dev.toolgate.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.persistence.EntityManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.Statement;

/**
 * What readiness reads, on a real journal: the schema this release migrated to, then the same journal as a newer
 * release leaves it — declaring this release compatible, and then not — as {@code flyway_schema_history} and
 * {@code journal_compatibility} hold it.
 */
class SchemaStandingIT {

    @RegisterExtension
    static final JournalDatabase database = JournalDatabase.perClass();
    private static EntityManagerFactory unit;
    private static int needed;

    @BeforeAll
    static void migrate() throws Exception {
        unit = database.persistenceUnit();
        needed = Integer.parseInt(standing(0).held());
    }

    @AfterAll
    static void stop() throws Exception {
        unit.close();
    }

    @Test
    void aNewerReleasesSchemaKeepsThisOneReadyOnlyWhileItDeclaresItCompatible() throws Exception {
        assertEquals(SchemaFit.SAME, standing(needed).fit());
        assertEquals(SchemaFit.TOO_OLD, standing(needed + 1).fit(), "a release that needs more than the journal holds");

        int newer = needed + 1;
        sql("INSERT INTO flyway_schema_history (installed_rank, version, description, type, script, checksum, installed_by,"
                + " execution_time, success) VALUES ((SELECT max(installed_rank) + 1 FROM flyway_schema_history), '" + newer
                + "', 'a newer release', 'SQL', 'V" + newer + "__newer.sql', 0, 'test', 0, true)");
        sql("INSERT INTO journal_compatibility (schema_version, oldest_compatible) VALUES (" + newer + ", " + needed + ")");
        assertEquals(String.valueOf(needed), JournalSchema.carriedVersion(org.flywaydb.core.Flyway.configure()
                .dataSource(database.dataSource()).load()), "what this release needs is what it carries, not what a newer one applied");
        Journal.SchemaStanding compatible = standing(needed);
        assertEquals(String.valueOf(newer), compatible.held());
        assertEquals(SchemaFit.NEWER_COMPATIBLE, compatible.fit());

        sql("UPDATE journal_compatibility SET oldest_compatible = " + newer + " WHERE schema_version = " + newer);
        assertEquals(SchemaFit.TOO_NEW, standing(needed).fit(), "a contract step leaves this release behind");
    }

    private static Journal.SchemaStanding standing(int neededVersion) {
        return JournalDatabase.inTransaction(unit, em -> JournalDatabase.journal(em).schemaStanding(neededVersion));
    }

    private static void sql(String statement) throws Exception {
        try (Connection c = database.connection(); Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }
}

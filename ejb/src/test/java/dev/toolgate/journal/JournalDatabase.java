package dev.toolgate.journal;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.flywaydb.core.Flyway;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;

/** A real PostgreSQL holding the migrated journal schema, for tests of the journal's own SQL. */
final class JournalDatabase implements AutoCloseable {

    private final EmbeddedPostgres postgres;

    private JournalDatabase(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    static JournalDatabase migrated() throws IOException {
        EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        Flyway.configure().dataSource(postgres.getPostgresDatabase()).locations("classpath:db/migration").load().migrate();
        return new JournalDatabase(postgres);
    }

    Connection connection() throws SQLException {
        return postgres.getPostgresDatabase().getConnection();
    }

    javax.sql.DataSource dataSource() {
        return postgres.getPostgresDatabase();
    }

    /** The JPA statements number their parameters (?1, ?2 …) in order; JDBC wants plain ?. */
    static String jdbc(String jpaSql) {
        return jpaSql.replaceAll("\\?\\d+", "?");
    }

    @Override
    public void close() throws IOException {
        postgres.close();
    }
}

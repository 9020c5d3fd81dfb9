package dev.toolgate.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;

/** The local run's journal keeps what it says it keeps: the embedded default starts PostgreSQL with fsync off. */
class DurablePostgresTest {

    @Test
    void theLocalRunsPostgresSyncsEveryCommit(@TempDir Path dir) throws Exception {
        try (EmbeddedPostgres postgres = LocalStack.durablePostgres(dir.resolve("pgdata"), LocalStack.freePort());
             Connection c = postgres.getPostgresDatabase().getConnection()) {
            for (String setting : new String[] {"fsync", "synchronous_commit", "full_page_writes"}) {
                try (ResultSet shown = c.createStatement().executeQuery("SHOW " + setting)) {
                    shown.next();
                    assertEquals("on", shown.getString(1), setting);
                }
            }
        }
    }
}

package dev.toolgate.journal;

import dev.toolgate.lifecycle.OperationWrites;
import dev.toolgate.lifecycle.FencedWrites;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * A statement with numbered parameters becomes positional JDBC with each occurrence remembered, so a number used
 * twice is bound twice, and ?1 is never read out of ?12. The journal's own statements run through it
 * ({@code FencedWritesIT}, {@code RecordersIT} on real PostgreSQL).
 */
class NumberedSqlTest {

    @Test
    void turnsEachNumberedParameterIntoAPositionalOneInOrder() {
        NumberedSql sql = NumberedSql.of("UPDATE t SET a = ?2, b = ?1 WHERE c = ?3");

        assertEquals("UPDATE t SET a = ?, b = ? WHERE c = ?", sql.jdbc());
        assertArrayEquals(new int[] {2, 1, 3}, sql.numberAt());
    }

    @Test
    void bindsANumberAtEveryPlaceItOccurs() {
        NumberedSql sql = NumberedSql.of("INSERT INTO e SELECT ?9, ?10 WHERE ?9 IS NOT NULL AND x = ?1");

        assertArrayEquals(new int[] {9, 10, 9, 1}, sql.numberAt());
        assertEquals(10, sql.parameters());
    }

    @Test
    void readsMultiDigitNumbersWhole() {
        NumberedSql sql = NumberedSql.of("SELECT ?1, ?12, ?123");

        assertEquals("SELECT ?, ?, ?", sql.jdbc());
        assertArrayEquals(new int[] {1, 12, 123}, sql.numberAt());
    }

    @Test
    void leavesAStatementWithoutParametersAsItIs() {
        NumberedSql sql = NumberedSql.of("SELECT 1");

        assertEquals("SELECT 1", sql.jdbc());
        assertEquals(0, sql.parameters());
    }

    @Test
    void theGatewaysOwnStatementsKeepTheirShape() {
        NumberedSql settle = NumberedSql.of(OperationWrites.SETTLE_ATTEMPT_LOGGED);

        assertEquals(19, settle.parameters());
        assertEquals(settle.numberAt().length, settle.jdbc().chars().filter(c -> c == '?').count(),
                "every numbered parameter, and nothing else, became a ?");
    }
}

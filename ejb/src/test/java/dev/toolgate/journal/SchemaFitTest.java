package dev.toolgate.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Readiness means "send me traffic": one row per schema an instance may find under it. */
class SchemaFitTest {

    @Test
    void isReadyOnTheSchemaItNeeds() {
        assertEquals(SchemaFit.SAME, SchemaFit.of(12, 12, null));
        assertTrue(SchemaFit.SAME.ready());
    }

    @Test
    void staysReadyWhenANewerReleaseMigratedAndDeclaresItCompatible() {
        assertEquals(SchemaFit.NEWER_COMPATIBLE, SchemaFit.of(12, 13, 12));
        assertEquals(SchemaFit.NEWER_COMPATIBLE, SchemaFit.of(12, 13, 11));
        assertTrue(SchemaFit.NEWER_COMPATIBLE.ready());
    }

    @Test
    void isNotReadyOnANewerSchemaThatLeftItBehindOrSaysNothing() {
        assertEquals(SchemaFit.TOO_NEW, SchemaFit.of(12, 14, 13));
        assertEquals(SchemaFit.TOO_NEW, SchemaFit.of(12, 13, null));
        assertFalse(SchemaFit.TOO_NEW.ready());
    }

    @Test
    void isNotReadyBeforeTheJournalIsMigrated() {
        assertEquals(SchemaFit.TOO_OLD, SchemaFit.of(12, 11, null));
        assertEquals(SchemaFit.NONE, SchemaFit.of(12, null, null));
        assertFalse(SchemaFit.TOO_OLD.ready());
        assertFalse(SchemaFit.NONE.ready());
    }
}

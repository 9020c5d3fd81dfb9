package dev.toolgate.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.journal.Retention;

import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Which operations go with a purged process: every stage key its recorded declaration can have used, or the keys of that shape. */
class ProcessRetentionTest {

    @Test
    void aProcessGoesWithEveryStepAndEveryCompensationItsDeclarationNames() throws Exception {
        String examples;
        try (InputStream in = ProcessCatalog.class.getClassLoader().getResourceAsStream(ProcessCatalog.EXAMPLES)) {
            examples = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String prepay = ProcessDeclarations.parse(examples).get(1).declaration().toString();
        assertEquals(List.of("k/payment", "k/payment/compensation", "k/invoice", "k/invoice/compensation", "k/post", "k/post/compensation"),
                ProcessRetention.declaredStageKeys("k", prepay));
    }

    @Test
    void aDeclarationThisGatewayWouldNoLongerRunStillNamesItsStages() {
        assertEquals(List.of("k/pay", "k/pay/compensation"), ProcessRetention.declaredStageKeys("k",
                "{\"process\":\"gone.type\",\"steps\":[{\"name\":\"pay\",\"operation\":\"teleport.create\"}]}"),
                "an operation that left the catalog does not change which keys the process used");
    }

    @Test
    void aDeclarationThatDoesNotNameItsStepsLeavesItToTheKeysShape() {
        assertNull(ProcessRetention.declaredStageKeys("k", "{\"process\":\"gone.type\"}"));
        assertNull(ProcessRetention.declaredStageKeys("k", "{\"steps\":[{\"name\":\"../x\"}]}"), "a name no step may have");
        assertNull(ProcessRetention.declaredStageKeys("k", "{\"steps\":[{\"name\":\"compensation\"}]}"));
        assertNull(ProcessRetention.declaredStageKeys("k", "not json"));
    }

    @Test
    void thePurgesReadAStagesKeyByTheStepNameRuleDeclarationsAreCheckedBy() {
        // journal.Retention cannot see this package: its SQL spells the rule out, and this holds the two together
        String rule = ProcessDeclarations.STEP_NAME.pattern();
        assertEquals("[a-z][a-z0-9_]{0,31}", rule);
        assertTrue(Retention.PROCESS_OF_STAGE.contains("'^(.+)/" + rule + "$'"), Retention.PROCESS_OF_STAGE);
        assertTrue(Retention.PROCESS_OF_STAGE.contains("'^(.+)/" + rule + "/compensation$'"), Retention.PROCESS_OF_STAGE);
        assertTrue(Retention.PROCESS_OF_STAGE.contains("'/compensation/compensation$' THEN NULL"), "'compensation' names no step");
        assertFalse(ProcessDeclarations.isStepName("compensation"));
    }
}

package dev.toolgate.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Which operations go with a purged process: every stage key its recorded declaration can have used. */
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
    void aDeclarationThatCannotBeReadAnyMoreLeavesItToTheKeysPrefix() {
        assertNull(ProcessRetention.declaredStageKeys("k", "{\"process\":\"gone.type\"}"));
    }
}

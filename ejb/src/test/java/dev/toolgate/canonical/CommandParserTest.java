package dev.toolgate.canonical;

import static dev.toolgate.canonical.InvalidCommand.Reason.INVALID_REQUEST;
import static dev.toolgate.canonical.InvalidCommand.Reason.MALFORMED_JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CommandParserTest {

    @Test
    void readsTheEnvelope() {
        AgentCommand command = CommandParser.parse(
                "{\"operation\":\"invoice.create\",\"target\":\"1c\",\"payload\":{\"order_id\":\"o\"},\"trace_id\":\"t\"}");
        assertEquals("invoice.create", command.operation());
        assertEquals("1c", command.target());
        assertEquals("o", command.payload().getString("order_id"));
    }

    @Test
    void refusesMalformedTruncatedAndEmptyBodies() {
        assertReason(MALFORMED_JSON, "{\"operation\":");
        assertReason(MALFORMED_JSON, "{\"operation\":\"x\",}");
        assertReason(MALFORMED_JSON, "");
        assertReason(MALFORMED_JSON, "[1,2]");
        assertReason(MALFORMED_JSON, "\"just a string\"");
    }

    @Test
    void refusesAnotherShape() {
        assertReason(INVALID_REQUEST, "{\"operation\":\"invoice.create\",\"target\":\"1c\",\"payload\":[]}");
        assertReason(INVALID_REQUEST, "{\"operation\":\"invoice.create\",\"target\":\"1c\"}");
        assertReason(INVALID_REQUEST, "{\"operation\":7,\"target\":\"1c\",\"payload\":{}}");
        assertReason(INVALID_REQUEST, "{\"operation\":\"invoice.create\",\"payload\":{}}");
        assertReason(INVALID_REQUEST, "{\"operation\":\"invoice.create\",\"target\":\"1c\",\"payload\":{},\"priority\":1}");
    }

    private static void assertReason(InvalidCommand.Reason reason, String body) {
        assertEquals(reason, assertThrows(InvalidCommand.class, () -> CommandParser.parse(body)).reason());
    }
}

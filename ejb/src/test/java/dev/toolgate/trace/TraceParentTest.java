package dev.toolgate.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;

class TraceParentTest {

    @Test
    void takesTheTraceIdOfAWellFormedHeader() {
        assertEquals(Optional.of("4bf92f3577b34da6a3ce929d0e0e4736"),
                TraceParent.traceId("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"));
        assertEquals(Optional.of("4bf92f3577b34da6a3ce929d0e0e4736"), // a later version may add fields
                TraceParent.traceId("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra"));
    }

    @Test
    void treatsAMalformedHeaderAsAbsent() {
        for (String header : new String[] {null, "", "garbage", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
                "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x"}) {
            assertEquals(Optional.empty(), TraceParent.traceId(header), String.valueOf(header));
        }
    }

    @Test
    void propagatesTheTraceWithASpanOfOurOwn() {
        String outgoing = TraceParent.outgoing("4bf92f3577b34da6a3ce929d0e0e4736");
        assertTrue(outgoing.matches("00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01"), outgoing);
        assertTrue(TraceParent.newTraceId().matches("[0-9a-f]{32}"));
    }

    @Test
    void newIdsAreWellFormedAndNeverRepeat() {
        java.util.Set<String> traces = new java.util.HashSet<>();
        java.util.Set<String> spans = new java.util.HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            String trace = TraceParent.newTraceId();
            String span = TraceParent.newSpanId();
            assertTrue(trace.matches("[0-9a-f]{32}") && TraceParent.traceId("00-" + trace + "-" + span + "-01").isPresent(), trace + " " + span);
            assertTrue(traces.add(trace) && spans.add(span), "repeated: " + trace + " " + span);
        }
    }

    @Test
    void putsTheOperationAndTraceIntoTheLogContextAndRestoresTheOuterOne() {
        try (Trace outer = Trace.start("4bf92f3577b34da6a3ce929d0e0e4736")) {
            Trace.operation("k1");
            try (Trace inner = Trace.open("0af7651916cd43dd8448eb211c80319c", "k2")) {
                assertEquals(Map.of("operation_key", "k2", "trace_id", "0af7651916cd43dd8448eb211c80319c"), Trace.logFields());
            }
            assertEquals(Map.of("operation_key", "k1", "trace_id", "4bf92f3577b34da6a3ce929d0e0e4736"), Trace.logFields());
        }
        assertEquals(Map.of(), Trace.logFields());
    }
}

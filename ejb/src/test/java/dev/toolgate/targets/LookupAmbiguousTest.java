package dev.toolgate.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.util.List;

/** The duplicate a look-up found is written into an event's detail and read back from it by the console. */
class LookupAmbiguousTest {

    @Test
    void describesTheObjectsThatCarryTheKey() {
        assertEquals("2 objects carry this key: [a, b]", new Lookup.Ambiguous(List.of("a", "b")).describe());
    }

    @Test
    void readsBackTheIdsItDescribed() {
        List<String> ids = List.of("2c8f1e6a-000f-5000-8000-1a2b3c4d5e6f", "2c8f1e6b-000f-5000-9000-1a2b3c4d5e70", "x-3");
        assertEquals(ids, Lookup.Ambiguous.objectIdsIn(new Lookup.Ambiguous(ids).describe()));
    }

    @Test
    void findsTheIdsWhereverTheyStandInTheDetail() {
        String detail = "ambiguous after 3 look-ups: " + new Lookup.Ambiguous(List.of("a", "b")).describe() + "; escalated [by policy]";
        assertEquals(List.of("a", "b"), Lookup.Ambiguous.objectIdsIn(detail));
    }

    @Test
    void namesNoIdsInADetailThatHoldsNone() {
        assertEquals(List.of(), Lookup.Ambiguous.objectIdsIn(null));
        assertEquals(List.of(), Lookup.Ambiguous.objectIdsIn(""));
        assertEquals(List.of(), Lookup.Ambiguous.objectIdsIn("lookup_unavailable: target_http_503"));
        assertEquals(List.of(), Lookup.Ambiguous.objectIdsIn("[a, b]"), "a list is not a duplicate without the words before it");
        assertEquals(List.of(), Lookup.Ambiguous.objectIdsIn("2 objects carry this key: [a, b"), "cut off before its end");
        assertEquals(List.of(), Lookup.Ambiguous.objectIdsIn(new Lookup.Ambiguous(List.of()).describe()));
    }

    @Test
    void readsOneId() {
        assertEquals(List.of("only"), Lookup.Ambiguous.objectIdsIn(new Lookup.Ambiguous(List.of("only")).describe()));
    }
}

package dev.toolgate.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import org.junit.jupiter.api.Test;

/** The table of {@link ExportedAttributes}: what of a server's request URL may leave, row by row. */
class ExportedAttributesTest {

    @Test
    void aUrlLosesItsQueryAndUrlQueryIsDropped() {
        Attributes scrubbed = ExportedAttributes.scrub(Attributes.builder()
                .put("http.url", "http://gw/api/v1/approvals/a1?reason=called+the+CFO")
                .put("url.full", "http://gw/api/v1/operations?key=k1")
                .put("http.target", "/api/v1/operations?key=k1")
                .put("url.query", "key=k1")
                .put("http.response.status_code", 200L).build());
        assertEquals("http://gw/api/v1/approvals/a1", scrubbed.get(AttributeKey.stringKey("http.url")));
        assertEquals("http://gw/api/v1/operations", scrubbed.get(AttributeKey.stringKey("url.full")));
        assertEquals("/api/v1/operations", scrubbed.get(AttributeKey.stringKey("http.target")));
        assertNull(scrubbed.get(AttributeKey.stringKey("url.query")));
        assertEquals(200L, scrubbed.get(AttributeKey.longKey("http.response.status_code")), "other attributes as they were");
    }

    @Test
    void aUrlOrPathCarryingACardNumberIsReplacedByAMarker() {
        Attributes scrubbed = ExportedAttributes.scrub(Attributes.builder()
                .put("url.path", "/api/v1/operations/test:pay:4111111111111111:v1")
                .put("http.url", "http://gw/api/v1/operations/test:pay:4111 1111 1111 1111:v1").build());
        assertEquals(ExportedAttributes.CARD_REMOVED, scrubbed.get(AttributeKey.stringKey("url.path")));
        assertEquals(ExportedAttributes.CARD_REMOVED, scrubbed.get(AttributeKey.stringKey("http.url")));
    }

    @Test
    void anyTextAttributeCarryingACardNumberIsReplacedOursIncluded() {
        Attributes scrubbed = ExportedAttributes.scrub(Attributes.builder()
                .put("toolgate.operation_key", "t:pay:4111111111111111:v1")
                .put("exception.message", "no operation t:pay:4111 1111 1111 1111:v1")
                .put(AttributeKey.stringArrayKey("toolgate.found_object_ids"), java.util.List.of("a1", "5500000000000004"))
                .put("toolgate.attempt", 2L).build());
        assertEquals(ExportedAttributes.CARD_REMOVED, scrubbed.get(AttributeKey.stringKey("toolgate.operation_key")));
        assertEquals(ExportedAttributes.CARD_REMOVED, scrubbed.get(AttributeKey.stringKey("exception.message")));
        assertEquals(java.util.List.of("a1", ExportedAttributes.CARD_REMOVED),
                scrubbed.get(AttributeKey.stringArrayKey("toolgate.found_object_ids")));
        assertEquals(2L, scrubbed.get(AttributeKey.longKey("toolgate.attempt")));
    }

    @Test
    void attributesWithNoUrlAreExportedAsTheyAre() {
        Attributes ours = Attributes.builder().put("toolgate.operation_key", "k").put("toolgate.attempt", 1L).build();
        assertSame(ours, ExportedAttributes.scrub(ours));
        Attributes path = Attributes.builder().put("url.path", "/api/v1/operations").build();
        assertEquals("/api/v1/operations", ExportedAttributes.scrub(path).get(AttributeKey.stringKey("url.path")));
    }
}

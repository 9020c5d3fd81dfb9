package dev.toolgate.targets.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.targets.http.Classification.Kind;
import org.junit.jupiter.api.Test;

/** What an HTTP status proves when the configuration says nothing, and what the configuration may change. */
class ClassificationTest {

    private final Classification defaults = new Classification(null);

    @Test
    void aGatewayOrProxyFailureFromTheLastHopIsUnknown() {
        // a 502/503/504 from a proxy says nothing about whether the upstream committed
        assertEquals(Kind.UNKNOWN, defaults.of(502, null));
        assertEquals(Kind.UNKNOWN, defaults.of(503, null));
        assertEquals(Kind.UNKNOWN, defaults.of(504, null));
        assertEquals(Kind.UNKNOWN, defaults.of(500, null));
    }

    @Test
    void tooManyRequestsIsRetriedAndOtherClientErrorsAreFinal() {
        assertEquals(Kind.RETRY, defaults.of(429, null));
        assertEquals(Kind.FINAL, defaults.of(400, null));
        assertEquals(Kind.FINAL, defaults.of(409, null));
    }

    @Test
    void aTargetWhoseContractProvesNothingExecutedMayDeclare503Retryable() {
        Classification documented = new Classification("503:retry,5xx:unknown,code:LOCKED:retry");
        assertEquals(Kind.RETRY, documented.of(503, null));
        assertEquals(Kind.UNKNOWN, documented.of(502, null));
        assertEquals(Kind.RETRY, documented.of(423, "LOCKED"));
    }
}

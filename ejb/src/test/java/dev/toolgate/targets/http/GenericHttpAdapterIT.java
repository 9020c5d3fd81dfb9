package dev.toolgate.targets.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.toolgate.simulator.SimulatorClient;
import dev.toolgate.simulator.Simulators;
import dev.toolgate.targets.Attempt;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.Outcome;
import jakarta.json.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The generic HTTP adapter, configured (not coded) for 1C's HTTP-service mode on the simulator: a
 * server-side look-up-or-create by key, so a re-send with the same key is safe by construction.
 */
class GenericHttpAdapterIT {

    private static Simulators simulators;
    private static SimulatorClient control;
    private static GenericHttpAdapter oneC;

    @BeforeAll
    static void start() throws Exception {
        simulators = Simulators.start(0);
        control = new SimulatorClient(simulators.baseUrl());
        oneC = new GenericHttpAdapter("1c", HttpTargetSettings.from(settings(Simulators.ONE_C_PASSWORD)::get, "1c"));
    }

    @AfterAll
    static void stop() {
        simulators.close();
    }

    /** The configuration docs/operations.md shows for 1C's HTTP service, as property → value, with {@code password}. */
    static Map<String, Optional<String>> settings(String password) {
        Map<String, Optional<String>> values = new HashMap<>();
        simulators.oneCHttpServiceSettings().forEach((name, value) -> values.put(name, Optional.of(value)));
        values.put("toolgate.target.1c.http.password", Optional.of(password));
        return new HashMap<>(values) {
            @Override
            public Optional<String> get(Object key) {
                return super.getOrDefault(key, Optional.empty());
            }
        };
    }

    @Test
    void createsOneDocumentAndFindsItByKey() {
        Attempt dispatch = invoice(1);
        Outcome.Succeeded created = assertInstanceOf(Outcome.Succeeded.class, oneC.execute(dispatch));
        assertEquals(List.of(created.objectId()), control.effects("1c", dispatch.downstreamKey()));
        assertEquals(created.objectId(), assertInstanceOf(Lookup.Found.class, oneC.lookup(dispatch)).objectId());
    }

    @Test
    void reSendsTheSameKeyAfterALostAnswerAndTheServiceAnswersTheSameDocument() {
        Attempt first = invoice(1);
        control.arm("1c", first.downstreamKey(), "drop_response_after_commit", 1);
        assertInstanceOf(Outcome.Unknown.class, oneC.execute(first));
        Outcome.Succeeded again = assertInstanceOf(Outcome.Succeeded.class, oneC.execute(attempt(first, 2)));
        assertEquals(List.of(again.objectId()), control.effects("1c", first.downstreamKey()), "one document, by the service's lock");
    }

    @Test
    void classifiesByTheConfiguredTable() {
        Attempt busy = invoice(1);
        control.armStatus("1c", busy.downstreamKey(), 423, 1);
        assertInstanceOf(Outcome.Transient.class, oneC.execute(busy));
        Attempt failing = invoice(1);
        control.armStatus("1c", failing.downstreamKey(), 500, 1);
        assertInstanceOf(Outcome.Unknown.class, oneC.execute(failing));
        Attempt limited = invoice(1);
        control.armStatus("1c", limited.downstreamKey(), 503, 1);
        assertInstanceOf(Outcome.Transient.class, oneC.execute(limited));

        Attempt bad = new Attempt("acme/test:" + UUID.randomUUID(), "invoice.create", 1,
                Json.createObjectBuilder().add("order_id", "o").add("amount_minor", 100).add("currency", "XXX").build(),
                Instant.now(), null, null);
        Outcome.Rejected rejected = assertInstanceOf(Outcome.Rejected.class, oneC.execute(bad));
        assertEquals("the target answered HTTP 400 (invalid_request)", rejected.detail());
        Outcome.Rejected unauthorized = assertInstanceOf(Outcome.Rejected.class,
                new GenericHttpAdapter("1c", HttpTargetSettings.from(settings("wrong")::get, "1c")).execute(invoice(1)));
        assertEquals("target_auth_failed", unauthorized.errorCode());
    }

    @Test
    void reportsAbsentAndTwoDocumentsAsAmbiguous() {
        Attempt dispatch = invoice(1);
        assertInstanceOf(Lookup.Absent.class, oneC.lookup(dispatch));
        control.arm("1c", dispatch.downstreamKey(), "duplicate", 1);
        oneC.execute(dispatch);
        assertEquals(2, assertInstanceOf(Lookup.Ambiguous.class, oneC.lookup(dispatch)).objectIds().size());
    }

    @Test
    void looksUpBeforeAReSendWhenTheTargetDoesNotDeduplicate() {
        Map<String, Optional<String>> plain = settings(Simulators.ONE_C_PASSWORD);
        plain.put("toolgate.target.1c.http.idempotency-header", Optional.empty());
        GenericHttpAdapter withoutKeyDedup = new GenericHttpAdapter("1c", HttpTargetSettings.from(plain::get, "1c"));
        Attempt first = invoice(1);
        assertInstanceOf(Outcome.Succeeded.class, withoutKeyDedup.execute(first));
        withoutKeyDedup.execute(attempt(first, 2));
        int[] calls = {control.creates("1c", first.downstreamKey()), control.lookups("1c", first.downstreamKey())};
        assertEquals(1, calls[0], "attempt 2 found the document and sent nothing");
        assertEquals(1, calls[1]);
    }

    private static Attempt invoice(int attempt) {
        return new Attempt("acme/test:invoice.create:" + UUID.randomUUID() + ":v1", "invoice.create", attempt,
                Json.createObjectBuilder().add("order_id", "order-hs").add("amount_minor", 125000).add("currency", "RUB").build(),
                Instant.now(), null, null);
    }

    private static Attempt attempt(Attempt d, int attempt) {
        return new Attempt(d.downstreamKey(), d.operation(), attempt, d.payload(), d.createdAt(), d.objectId(), d.traceId());
    }
}

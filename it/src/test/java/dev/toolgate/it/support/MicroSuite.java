package dev.toolgate.it.support;

import dev.toolgate.simulator.SimulatorClient;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.UUID;

/**
 * A suite against the gateway WAR on the one Payara Micro that all Micro suites of a test JVM share
 * ({@link TestStack#microGateway}), with the journal on TestStack's PostgreSQL and the targets at its
 * simulators. The server and the journal outlive each suite, so every test makes keys of its own
 * (and principals of its own where it changes one).
 */
public abstract class MicroSuite {

    /** The simulators' control API: arms faults and counts what reached 1C, Bitrix24 and YooKassa. */
    protected final SimulatorClient oneC = TestStack.targets();

    /** {@code agent-a} of tenant {@code acme}. */
    protected Agent agent() {
        return new Agent(baseUrl());
    }

    protected String baseUrl() {
        try {
            return TestStack.microGateway();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A submission with {@code key} sent as is (no quoting), with agent-a's token once sent through {@link Agent#send}. */
    protected HttpRequest.Builder post(String key, String body) {
        return agent().operations().header("Idempotency-Key", key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    /** A read with {@code token}: the cheapest authenticated call (404, no such key). */
    protected Agent.Answer reader(String token) {
        return new Agent(baseUrl()).sendAnonymously(HttpRequest.newBuilder(
                URI.create(baseUrl() + "/api/v1/operations/none-" + UUID.randomUUID())).header("Authorization", "Bearer " + token));
    }

    /** A fresh invoice key: the journal is shared by all Micro suites of the run. */
    protected static String key(String intent) {
        return "test:invoice.create:" + intent + "-" + UUID.randomUUID() + ":v1";
    }
}

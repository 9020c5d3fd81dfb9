package dev.toolgate.it.support;

import dev.toolgate.simulator.SimulatorClient;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpRequest;
import java.util.UUID;

/**
 * A suite against the gateway WAR on the one Payara Micro that Arquillian starts per test JVM, with
 * the journal on TestStack's PostgreSQL and the targets at its simulators. Each suite deploys the WAR
 * anew; what they share is only the journal, so every test makes keys of its own.
 */
@ExtendWith(ArquillianExtension.class)
public abstract class MicroSuite {

    @ArquillianResource
    private URL deployment;

    /** The simulators' control API: arms faults and counts what reached 1C, Bitrix24 and YooKassa. */
    protected final SimulatorClient oneC = TestStack.targets();

    @Deployment(testable = false)
    public static WebArchive gateway() {
        return MicroDeployment.gatewayWar();
    }

    /** {@code agent-a} of tenant {@code acme}. */
    protected Agent agent() {
        return new Agent(baseUrl());
    }

    protected String baseUrl() {
        String baseUrl = MicroDeployment.baseUrl(deployment);
        Credentials.serves(baseUrl, TestStack.gatewayConfig().get("toolgate.db.url"));
        return baseUrl;
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

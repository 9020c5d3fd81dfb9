package dev.toolgate.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.launcher.LocalStack;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.UUID;

/**
 * Tokens belong to a journal, not to an address: ports are reused within a run (Arquillian's Micro
 * takes a random one for every suite), and a gateway on another journal at an address used before
 * must get tokens of its own, not the ones the earlier gateway's journal knew.
 */
@Lane(3)
class CredentialsIT {

    @Test
    void gatewayOnAnotherJournalAtAReusedAddressGetsTokensOfItsOwn() throws Exception {
        int port = LocalStack.freePort();
        GatewayProcess first = gateway(port, "credentials_first");
        try {
            assertEquals(201, new Agent(first.baseUrl()).submit(key(), Agent.invoice("reused-address", 700)).status());
        } finally {
            TestStack.discard(first); // gone, its port free for the second
        }
        GatewayProcess second = gateway(port, "credentials_second");
        try {
            assertEquals(201, new Agent(second.baseUrl()).submit(key(), Agent.invoice("reused-address", 700)).status(),
                    "the second journal's own agent-a is let in");
        } finally {
            TestStack.discard(second);
        }
    }

    private static String key() {
        return "test:invoice.create:reused-address-" + UUID.randomUUID() + ":v1";
    }

    private static GatewayProcess gateway(int port, String database) throws Exception {
        Map<String, String> config = TestStack.configFor(TestStack.newDatabase(database));
        return TestStack.startGateway(port, config, database + "-gateway").awaitReady();
    }
}

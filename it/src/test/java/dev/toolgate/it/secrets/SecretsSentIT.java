package dev.toolgate.it.secrets;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Lane;
import org.junit.jupiter.api.Test;

/**
 * Sends every secret through a gateway of its own ({@link SecretsSent}) in a lane, beside the other suites, so that the
 * scan that must come last and alone ({@link SecretsScanIT}) only reads: the gateway's start and the calls were 30 of
 * the scan's 44 s, in which every other lane stood idle. The refusals it expects are asserted as it sends.
 */
@Lane(2)
class SecretsSentIT {

    @Test
    void everySecretGoesThroughTheGatewayAndEveryCardIsRefusedUnquoted() throws Exception {
        assertTrue(SecretsSent.spans().contains("toolgate.lookup"), "the gateway exported the look-up's span");
    }
}

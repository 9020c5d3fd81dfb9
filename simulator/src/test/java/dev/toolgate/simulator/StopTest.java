package dev.toolgate.simulator;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Stopped simulators leave nothing in the temporary folder: a test run starts dozens of them. */
class StopTest {

    @Test
    void closingTheSimulatorsRemovesTheirCertificateFiles() throws Exception {
        Path folder;
        try (Simulators simulators = Simulators.start(0, Map.of())) {
            folder = simulators.tls().caBundle().getParent();
            assertTrue(Files.exists(simulators.tls().caBundle()), "the CA bundle a gateway is configured with exists while they run");
        }
        assertFalse(Files.exists(folder), "the certificate folder is gone after close");
    }
}

package dev.toolgate.launcher;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** The local run refuses a port something else already listens on, rather than saying "ready" over it. */
class LocalStackTest {

    @Test
    void refusesAPortSomethingElseListensOnNamingTheSettingToChange() throws IOException {
        try (ServerSocket other = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            IOException refused = assertThrows(IOException.class, () -> LocalStack.requireFree(other.getLocalPort(), "toolgate.simulator.port"));
            assertTrue(refused.getMessage().contains("-Dtoolgate.simulator.port="), refused.getMessage());
        }
    }

    @Test
    void takesAFreePort() throws IOException {
        int free;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            free = probe.getLocalPort();
        }
        assertDoesNotThrow(() -> LocalStack.requireFree(free, "toolgate.port"));
    }
}

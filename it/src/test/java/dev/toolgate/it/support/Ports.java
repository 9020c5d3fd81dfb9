package dev.toolgate.it.support;


import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Which loopback ports a server started by a test may take. */
public final class Ports {

    private Ports() {
    }

    public static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return true;
        } catch (IOException taken) {
            return false;
        }
    }
}

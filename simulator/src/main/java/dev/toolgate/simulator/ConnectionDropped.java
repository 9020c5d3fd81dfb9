package dev.toolgate.simulator;

/**
 * Thrown from a handler to make the JDK HTTP server close the connection without a response:
 * what a caller sees when a network path or a proxy dies mid-request.
 */
final class ConnectionDropped extends RuntimeException {

    ConnectionDropped() {
        super("connection dropped by an armed fault", null, false, false);
    }
}

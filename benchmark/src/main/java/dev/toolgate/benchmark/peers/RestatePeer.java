package dev.toolgate.benchmark.peers;

import dev.restate.sdk.endpoint.Endpoint;
import dev.restate.sdk.http.vertx.RestateHttpServer;

/**
 * The Restate peer's service endpoint (the Java SDK's own HTTP server), which the Restate server calls; the
 * benchmark registers it with the server and calls it through the server's ingress. Args: port, the simulators' URL.
 */
public final class RestatePeer {

    private RestatePeer() {
    }

    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        RestateHttpServer.listen(Endpoint.bind(new RestateInvoices(args[1])), port);
        System.out.println("Restate peer's endpoint listening on " + port);
    }
}

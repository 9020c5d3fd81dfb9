package dev.toolgate.benchmark;

import dev.toolgate.benchmark.peers.DbosPeer;
import dev.toolgate.benchmark.peers.RestatePeer;
import dev.toolgate.launcher.LocalStack;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The peers the gateway is compared with, each started for its series and stopped after it: what a team would
 * run instead to make the same 1C invoice once per idempotency key (package {@code peers} says how each is written).
 * A running peer names its processes, whose CPU its cells count, and the one JVM whose JIT its warm-up waits for.
 */
final class Peers {

    static final String DBOS = "DBOS Transact";
    static final String RESTATE = "Restate";
    /** DBOS's system database, on the journal's PostgreSQL server, with the same durability settings. */
    static final String DBOS_DATABASE = "dbos_peer";

    record Running(String name, String url, String keyHeader, List<ProcessCpu> processes, long jvm, List<PeerProcess> owned)
            implements AutoCloseable {
        @Override
        public void close() throws InterruptedException {
            for (int i = owned.size() - 1; i >= 0; i--) { // the endpoint before the server that calls it
                owned.get(i).close();
            }
        }
    }

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private Peers() {
    }

    /** DBOS Transact in a JVM behind the JDK's HTTP server, its system database {@link #DBOS_DATABASE} on {@code postgresPort}. */
    static Running dbos(Path home, int postgresPort, String simulatorsUrl) throws Exception {
        int port = LocalStack.freePort();
        PeerProcess app = PeerProcess.java(DbosPeer.class, port, home.resolve("peer-dbos.log"), Integer.toString(port),
                simulatorsUrl, "jdbc:postgresql://127.0.0.1:" + postgresPort + "/" + DBOS_DATABASE, "postgres");
        return new Running(DBOS, "http://127.0.0.1:" + port + "/invoices", "Idempotency-Key",
                List.of(ProcessCpu.of("DBOS app", List.of(app.pid()))), app.pid(), List.of(app));
    }

    /**
     * The Restate server (its own binary, {@code server}; its defaults, which fsync its log) with the peer's service
     * endpoint in a JVM, registered with it as a deployment; called through the server's ingress.
     */
    static Running restate(Path home, Path server, String simulatorsUrl) throws Exception {
        if (!Files.isExecutable(server)) {
            throw new IOException("no Restate server at " + server + " (-P bench installs it: npm ci in target/restate)");
        }
        int ingress = LocalStack.freePort();
        int admin = LocalStack.freePort();
        int node = LocalStack.freePort();
        int endpointPort = LocalStack.freePort();
        Path data = Files.createDirectories(home.resolve("restate-data"));
        PeerProcess restate = PeerProcess.binary(List.of(server.toString(), "--base-dir", data.toString(), "--no-logo",
                        "--listen-mode", "tcp"),
                Map.of("RESTATE_INGRESS__BIND_ADDRESS", "127.0.0.1:" + ingress, "RESTATE_ADMIN__BIND_ADDRESS", "127.0.0.1:" + admin,
                        "RESTATE_BIND_ADDRESS", "127.0.0.1:" + node, "RESTATE_ADVERTISED_ADDRESS", "http://127.0.0.1:" + node + "/",
                        "RESTATE_DISABLE_TELEMETRY", "true", "RESTATE_LOG_FILTER", "warn"),
                admin, home.resolve("peer-restate-server.log"));
        PeerProcess endpoint;
        try {
            endpoint = PeerProcess.java(RestatePeer.class, endpointPort, home.resolve("peer-restate-endpoint.log"),
                    Integer.toString(endpointPort), simulatorsUrl);
            register(admin, endpointPort);
        } catch (Exception failed) {
            restate.close();
            throw failed;
        }
        return new Running(RESTATE, "http://127.0.0.1:" + ingress + "/Invoices/create", "idempotency-key",
                List.of(ProcessCpu.of("Restate server", List.of(restate.pid())), ProcessCpu.of("Restate endpoint", List.of(endpoint.pid()))),
                endpoint.pid(), List.of(restate, endpoint));
    }

    /** Registers the endpoint with the server's admin API, once the admin API answers (it listens before it is ready). */
    private static void register(int admin, int endpointPort) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + admin + "/deployments"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"uri\":\"http://127.0.0.1:" + endpointPort + "\"}")).build();
        HttpResponse<String> answer = null;
        for (int attempt = 0; attempt < 100; attempt++) {
            answer = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() / 100 == 2) {
                return;
            }
            Thread.sleep(300);
        }
        throw new IllegalStateException("Restate did not register the endpoint: " + answer.statusCode() + " " + answer.body());
    }
}

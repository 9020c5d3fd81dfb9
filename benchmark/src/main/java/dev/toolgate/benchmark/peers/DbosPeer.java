package dev.toolgate.benchmark.peers;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.dbos.transact.DBOS;
import dev.dbos.transact.config.DBOSConfig;
import dev.dbos.transact.context.WorkflowOptions;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * The DBOS Transact peer: the smallest HTTP front a Java team would put before a DBOS workflow — the JDK's own
 * server — and the workflow, run with the agent's Idempotency-Key as its id. {@code POST /invoices} answers 200 and
 * the document, the first time and every time after; a call without a key is refused (400), as the gateway refuses it.
 * Args: port, the simulators' URL, the system database's JDBC URL, its user.
 */
public final class DbosPeer {

    /** More workers than the benchmark's highest concurrency (32), so none waits for a thread. */
    private static final int WORKERS = 64;

    private DbosPeer() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        DBOS dbos = new DBOS(DBOSConfig.defaults("toolgate-bench-peer").withDatabaseUrl(args[2]).withDbUser(args[3])
                .withDbPassword("").withAdminServer(false));
        DbosInvoices invoices = dbos.registerProxy(DbosInvoices.class, new DbosInvoiceWorkflow(dbos, args[1]));
        dbos.launch();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 256);
        server.setExecutor(Executors.newFixedThreadPool(WORKERS));
        server.createContext("/invoices", exchange -> {
            try (exchange) {
                answer(exchange, invoices);
            }
        });
        server.start();
        System.out.println("DBOS peer listening on " + port + ", DBOS " + DBOS.version());
    }

    private static void answer(HttpExchange exchange, DbosInvoices invoices) throws IOException {
        String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
        if (!"POST".equals(exchange.getRequestMethod()) || key == null || key.isBlank()) {
            send(exchange, 400, "{\"error\":\"POST with an Idempotency-Key\"}");
            return;
        }
        String payload = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        try (var workflowId = new WorkflowOptions(key).setContext()) {
            send(exchange, 200, invoices.create(key, payload));
        } catch (Exception failed) {
            send(exchange, 502, "{\"error\":\"" + failed.getClass().getSimpleName() + "\"}");
        }
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}

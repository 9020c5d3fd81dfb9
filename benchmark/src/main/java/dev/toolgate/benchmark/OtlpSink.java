package dev.toolgate.benchmark;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A collector that takes every OTLP/HTTP export and keeps nothing but counts: the cheapest collector a
 * traced gateway can have, so the tracing series measure the gateway's side of tracing only.
 */
final class OtlpSink implements AutoCloseable {

    private final HttpServer server;
    private final AtomicLong exports = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();

    private OtlpSink(HttpServer server) {
        this.server = server;
    }

    static OtlpSink start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        OtlpSink sink = new OtlpSink(server);
        server.createContext("/", sink::take);
        server.setExecutor(Executors.newFixedThreadPool(2));
        server.start();
        return sink;
    }

    /** What {@code otel.exporter.otlp.endpoint} is set to. */
    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    long exports() {
        return exports.get();
    }

    long bytes() {
        return bytes.get();
    }

    private void take(HttpExchange exchange) throws IOException {
        try (exchange; InputStream body = exchange.getRequestBody()) {
            bytes.addAndGet(body.transferTo(java.io.OutputStream.nullOutputStream()));
            exports.incrementAndGet();
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, -1); // an empty ExportTraceServiceResponse: everything accepted
        }
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}

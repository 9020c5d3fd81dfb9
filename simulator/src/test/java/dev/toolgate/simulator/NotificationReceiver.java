package dev.toolgate.simulator;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A notification handler for the tests: the JDK's HTTP server on 127.0.0.1, keeping every request it gets and
 * answering the statuses it is told, in order, then 200.
 */
final class NotificationReceiver implements AutoCloseable {

    /** One request as it arrived. */
    record Received(String path, String contentType, String body, String remoteAddress, Instant at) {
    }

    private final HttpServer server;
    private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
    private final Queue<Integer> answers = new ConcurrentLinkedQueue<>();

    NotificationReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 16);
        server.createContext("/", exchange -> {
            Received request = new Received(exchange.getRequestURI().getPath(), exchange.getRequestHeaders().getFirst("Content-Type"),
                    new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8),
                    exchange.getRemoteAddress().getAddress().getHostAddress(), Instant.now());
            Integer status = answers.poll();
            exchange.sendResponseHeaders(status == null ? 200 : status, -1);
            exchange.close();
            received.add(request);
        });
        server.start();
    }

    /** The URL of {@code path} here, e.g. {@code http://127.0.0.1:41234/hook}. */
    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    /** The next requests are answered {@code statuses}, in order. */
    void answer(int... statuses) {
        for (int status : statuses) {
            answers.add(status);
        }
    }

    /** The next request to arrive, waiting at most {@code timeout}; null if none came. */
    Received next(Duration timeout) throws InterruptedException {
        return received.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The next {@code count} requests; fails if they do not all come within {@code timeout}. */
    List<Received> next(int count, Duration timeout) throws InterruptedException {
        List<Received> requests = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (requests.size() < count) {
            Received request = received.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (request == null) {
                throw new AssertionError("only " + requests.size() + " of " + count + " notifications came within " + timeout);
            }
            requests.add(request);
        }
        return requests;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

package dev.toolgate.it.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A loopback HTTP proxy in front of a gateway that adds one principal's {@code Authorization} to every request and
 * changes nothing else: what an agent host configured with the gateway's URL and a token sends. For a client that
 * cannot be given a token (the MCP conformance suite's server scenarios send none); Origin and every MCP header
 * pass through unchanged, so the gateway still judges them.
 */
public final class BearerProxy implements AutoCloseable {

    /** Hop-by-hop headers and those the JDK's client sets itself. */
    private static final Set<String> NOT_FORWARDED = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);

    static {
        NOT_FORWARDED.addAll(List.of("Host", "Connection", "Content-Length", "Transfer-Encoding", "Keep-Alive", "Upgrade",
                "Expect", "Authorization"));
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private final HttpServer server;
    private final String target;
    private final String token;

    /** Listens on a free loopback port; forwards to {@code targetBase} with {@code principal}'s token. */
    public BearerProxy(String targetBase, String principal) throws IOException {
        this.target = targetBase;
        this.token = Credentials.token(targetBase, principal);
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::forward);
        server.start();
    }

    /** {@code http://localhost:<port>}: the conformance suite's DNS-rebinding scenario needs a localhost name. */
    public String baseUrl() {
        return "http://localhost:" + server.getAddress().getPort();
    }

    private void forward(HttpExchange exchange) throws IOException {
        try (exchange; InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readAllBytes();
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(target + exchange.getRequestURI()))
                    .timeout(Duration.ofSeconds(60)).method(exchange.getRequestMethod(),
                            body.length == 0 ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
            for (Map.Entry<String, List<String>> header : exchange.getRequestHeaders().entrySet()) {
                if (!NOT_FORWARDED.contains(header.getKey())) {
                    header.getValue().forEach(value -> request.header(header.getKey(), value));
                }
            }
            request.header("Authorization", "Bearer " + token);
            HttpResponse<byte[]> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            response.headers().map().forEach((name, values) -> {
                if (!NOT_FORWARDED.contains(name) && !name.startsWith(":")) {
                    exchange.getResponseHeaders().put(name, values);
                }
            });
            byte[] answer = response.body();
            exchange.sendResponseHeaders(response.statusCode(), answer.length == 0 ? -1 : answer.length);
            if (answer.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

package dev.toolgate.it.console;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * Another site, as a browser sees it (served as {@code localhost}, while the console is {@code 127.0.0.1}): a page
 * whose form posts an approval to the console the moment it loads — what a phishing mail's link would do.
 */
final class ForgingSite implements AutoCloseable {

    private final HttpServer server;

    private ForgingSite(HttpServer server) {
        this.server = server;
    }

    static ForgingSite start(String target, String key, String fingerprint) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        String page = "<!DOCTYPE html><html><body><form id=\"f\" method=\"post\" action=\"" + target + "\">"
                + "<input name=\"key\" value=\"" + key + "\"><input name=\"fingerprint\" value=\"" + fingerprint + "\">"
                + "<input name=\"validity\" value=\"1 hour\"></form><script>document.getElementById('f').submit()</script></body></html>";
        server.createContext("/", exchange -> {
            byte[] body = page.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return new ForgingSite(server);
    }

    String url() {
        return "http://localhost:" + server.getAddress().getPort() + "/offer";
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

package dev.toolgate.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/** HTTP/1.1 over a plain socket, for requests a well-behaved client library refuses to send. */
final class RawHttp {

    private RawHttp() {
    }

    /** Sends {@code head} (request line and headers, CRLF-separated, no blank line) and a body; returns the status. */
    static int send(String baseUrl, String head, byte[] headerBytesExtra, String body) throws IOException {
        URI uri = URI.create(baseUrl);
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            byte[] content = body.getBytes(StandardCharsets.UTF_8);
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            out.write(headerBytesExtra);
            out.write(("Content-Length: " + content.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(content);
            out.flush();
            InputStream in = socket.getInputStream();
            String statusLine = new String(in.readNBytes(12), StandardCharsets.ISO_8859_1); // "HTTP/1.1 400"
            return Integer.parseInt(statusLine.substring(9, 12));
        }
    }
}

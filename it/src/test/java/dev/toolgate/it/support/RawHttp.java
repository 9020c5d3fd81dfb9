package dev.toolgate.it.support;


import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/** HTTP/1.1 over a plain socket, for requests a well-behaved client library refuses to send. */
public final class RawHttp {

    private RawHttp() {
    }

    /** Sends {@code head} (request line and headers, CRLF-separated, no blank line) and a body; returns the status. */
    public static int send(String baseUrl, String head, byte[] headerBytesExtra, String body) throws IOException {
        String line = exchange(baseUrl, head.getBytes(StandardCharsets.ISO_8859_1), headerBytesExtra, body);
        return Integer.parseInt(line.substring(9, 12)); // "HTTP/1.1 400 …"
    }

    /**
     * The status line, as sent ("HTTP/1.1 422 Unprocessable Content"), of the answer to {@code head} (request line and
     * headers, CRLF-separated, no blank line; Host is added) and {@code body}.
     */
    public static String statusLine(String baseUrl, String head, String body) throws IOException {
        URI uri = URI.create(baseUrl);
        return exchange(baseUrl, (head + "\r\nHost: " + uri.getHost() + ":" + uri.getPort() + "\r\n").getBytes(StandardCharsets.ISO_8859_1),
                new byte[0], body);
    }

    private static String exchange(String baseUrl, byte[] head, byte[] headerBytesExtra, String body) throws IOException {
        URI uri = URI.create(baseUrl);
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            socket.setSoTimeout(10_000);
            byte[] content = body.getBytes(StandardCharsets.UTF_8);
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            request.write(head);
            request.write(headerBytesExtra);
            request.write(("Content-Length: " + content.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            request.write(content);
            // one write: a server that refuses the head answers and closes without reading the body, and
            // a second write would then fail with a broken pipe before the answer is read
            try {
                OutputStream out = socket.getOutputStream();
                out.write(request.toByteArray());
                out.flush();
            } catch (SocketException e) {
                // the server answered early and closed: its answer is still there to read
            }
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            for (int b = in.read(); b != -1 && b != '\n'; b = in.read()) {
                if (b != '\r') {
                    line.write(b);
                }
            }
            return line.toString(StandardCharsets.ISO_8859_1);
        }
    }
}

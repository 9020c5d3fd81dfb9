package dev.toolgate.simulator;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * One HTTP/1.1 POST from a chosen source address. Java 17's {@code HttpClient} cannot bind its local
 * address (that came in 19), and a notification from another address is one of the faults, so every
 * delivery goes through this: a socket bound to the source, {@code Content-Length}, {@code Connection:
 * close}, and the status line of the answer.
 */
final class NotificationSender {

    static final String USER_AGENT = "toolgate-simulator";
    private static final int CONNECT_TIMEOUT_MS = 2_000;
    private static final int READ_TIMEOUT_MS = 5_000; // a receiver slower than this counts as failed, as a provider's would
    private static final int MAX_ANSWER_BYTES = 64 * 1024;

    /** The status of the answer to a POST of {@code body} to {@code url}, sent from {@code source}. */
    int post(URI url, InetAddress source, String contentType, byte[] body) throws IOException {
        boolean tls = "https".equalsIgnoreCase(url.getScheme());
        int port = url.getPort() != -1 ? url.getPort() : tls ? 443 : 80;
        try (Socket plain = new Socket()) {
            plain.bind(new InetSocketAddress(source, 0));
            plain.connect(new InetSocketAddress(sameFamily(url.getHost(), source), port), CONNECT_TIMEOUT_MS);
            plain.setSoTimeout(READ_TIMEOUT_MS);
            try (Socket socket = tls ? overTls(plain, url.getHost(), port) : plain) {
                OutputStream out = socket.getOutputStream();
                out.write(head(url, port, contentType, body.length).getBytes(StandardCharsets.ISO_8859_1));
                out.write(body);
                out.flush();
                return status(new BufferedInputStream(socket.getInputStream()));
            }
        }
    }

    /** TLS over the bound socket, trusting the JDK's CAs and checking the host name, as any HTTPS client does. */
    private static Socket overTls(Socket plain, String host, int port) throws IOException {
        SSLSocket socket = (SSLSocket) ((SSLSocketFactory) SSLSocketFactory.getDefault()).createSocket(plain, host, port, false);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        socket.setSSLParameters(parameters);
        return socket;
    }

    private static String head(URI url, int port, String contentType, int length) {
        String target = (url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath())
                + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery());
        return "POST " + target + " HTTP/1.1\r\n"
                + "Host: " + url.getHost() + (url.getPort() == -1 ? "" : ":" + port) + "\r\n"
                + "User-Agent: " + USER_AGENT + "\r\n"
                + "Content-Type: " + contentType + "\r\n"
                + "Content-Length: " + length + "\r\n"
                + "Connection: close\r\n\r\n";
    }

    /**
     * The status line's code. The rest of the answer is read to its end (the receiver closes, as asked), so
     * its close is a clean one; a receiver that keeps the connection open anyway has answered all the same.
     */
    private static int status(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b; (b = in.read()) != '\n'; ) {
            if (b == -1 || line.size() > 1024) {
                throw new IOException("no HTTP status line in the answer");
            }
            line.write(b);
        }
        String[] parts = line.toString(StandardCharsets.ISO_8859_1).trim().split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.") || !parts[1].matches("\\d{3}")) {
            throw new IOException("not an HTTP/1.x status line: " + line.toString(StandardCharsets.ISO_8859_1));
        }
        try {
            byte[] rest = new byte[4096];
            for (long read = 0; read < MAX_ANSWER_BYTES; ) {
                int n = in.read(rest);
                if (n == -1) {
                    break;
                }
                read += n;
            }
        } catch (IOException afterStatus) {
            // the status came; how the receiver ends the connection after it does not change the answer
        }
        return Integer.parseInt(parts[1]);
    }

    /** The receiver's address in the source's family: a socket bound to an IPv4 address cannot reach ::1. */
    private static InetAddress sameFamily(String host, InetAddress source) throws IOException {
        InetAddress[] all = InetAddress.getAllByName(host);
        return Arrays.stream(all).filter(a -> (a instanceof Inet4Address) == (source instanceof Inet4Address))
                .findFirst().orElse(all[0]);
    }
}

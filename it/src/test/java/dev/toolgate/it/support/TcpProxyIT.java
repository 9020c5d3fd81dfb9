package dev.toolgate.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;

/** The test proxy does to a connection exactly what each of its operations promises, against an echo server. */
class TcpProxyIT {

    private ServerSocket echo;
    private TcpProxy proxy;

    @BeforeEach
    void start() throws IOException {
        echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread server = new Thread(this::echoAll, "echo");
        server.setDaemon(true);
        server.start();
        proxy = TcpProxy.to("127.0.0.1", echo.getLocalPort());
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echo.close();
    }

    @Test
    void forwardsBothWays() throws IOException {
        try (Socket client = connect()) {
            assertEquals('a', roundTrip(client, 'a'));
        }
    }

    @Test
    void cutResetsCurrentConnectionsAndForwardsNewOnes() throws IOException {
        try (Socket client = connect()) {
            roundTrip(client, 'a');
            proxy.cut();
            assertThrows(IOException.class, () -> {
                client.getOutputStream().write('b');
                if (client.getInputStream().read() < 0) {
                    throw new IOException("closed");
                }
            });
        }
        try (Socket again = connect()) {
            assertEquals('c', roundTrip(again, 'c'));
        }
    }

    @Test
    void blackHoleHoldsBytesUntilRestored() throws IOException {
        try (Socket client = connect()) {
            proxy.blackHole();
            client.getOutputStream().write('a');
            assertThrows(SocketTimeoutException.class, () -> client.getInputStream().read(), "nothing comes back");
            proxy.restore();
            assertEquals('a', client.getInputStream().read(), "delivered once the partition heals");
        }
    }

    @Test
    void refuseClosesThePortUntilRestored() throws IOException {
        proxy.refuse();
        assertThrows(ConnectException.class, this::connect);
        proxy.restore();
        try (Socket client = connect()) {
            assertEquals('a', roundTrip(client, 'a'));
        }
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        socket.setSoTimeout(1_000);
        return socket;
    }

    private static int roundTrip(Socket client, char c) throws IOException {
        client.getOutputStream().write(c);
        return client.getInputStream().read();
    }

    private void echoAll() {
        while (!echo.isClosed()) {
            try {
                Socket connection = echo.accept();
                Thread copy = new Thread(() -> copy(connection), "echo-copy");
                copy.setDaemon(true);
                copy.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private static void copy(Socket connection) {
        try (connection; InputStream in = connection.getInputStream(); OutputStream out = connection.getOutputStream()) {
            int b;
            while ((b = in.read()) >= 0) {
                out.write(b);
                out.flush();
            }
        } catch (IOException ended) {
            // the client or the proxy closed it
        }
    }
}

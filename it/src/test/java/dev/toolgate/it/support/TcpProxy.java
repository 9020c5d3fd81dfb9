package dev.toolgate.it.support;


import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy on 127.0.0.1 between a client (the gateway) and a server (PostgreSQL, a target), for
 * tests that break the network between them the ways a real network breaks:
 * <ul>
 *   <li>{@link #cut()} — every current connection is reset (RST on both sides), as when a firewall or
 *       a restarted server drops them; new connections are forwarded as before;</li>
 *   <li>{@link #blackHole()} — nothing is forwarded any more, in either direction, but every socket
 *       stays open and new connections are accepted and then left silent: packets dropped, no RST,
 *       so only the client's own timeouts end its wait;</li>
 *   <li>{@link #refuse()} — the listening socket is closed, so new connections are refused at once
 *       (as when nothing listens on the port); current connections are left as they are;</li>
 *   <li>{@link #restore()} — listening and forwarding again; bytes held back by a black hole are
 *       delivered then, as TCP would once a partition heals.</li>
 * </ul>
 * Two threads per connection copy the bytes, one per direction. The port stays the same across
 * {@code refuse}/{@code restore}, so the client's configuration never changes.
 */
public final class TcpProxy implements AutoCloseable {

    private final InetSocketAddress upstream;
    private final int port;
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final Object gate = new Object();
    private volatile ServerSocket listener;
    private volatile Thread acceptor;
    private volatile boolean forwarding = true;
    private volatile boolean closed;

    private TcpProxy(InetSocketAddress upstream, ServerSocket listener) {
        this.upstream = upstream;
        this.listener = listener;
        this.port = listener.getLocalPort();
    }

    /** A proxy on a free port of 127.0.0.1 forwarding to {@code host:port}. */
    public static TcpProxy to(String host, int port) throws IOException {
        TcpProxy proxy = new TcpProxy(new InetSocketAddress(host, port), listen(0));
        proxy.acceptOn(proxy.listener);
        return proxy;
    }

    public int port() {
        return port;
    }

    /** Connections open now (each a client socket and its upstream socket). */
    public int connections() {
        return links.size();
    }

    /** Resets every current connection on both sides; new ones are forwarded. */
    public void cut() {
        for (Link link : links) {
            link.reset();
            links.remove(link); // its pumps may be held by a black hole: do not count it meanwhile
        }
    }

    /** Stops forwarding without closing anything; new connections are accepted and left silent. */
    public void blackHole() {
        forwarding = false;
    }

    /** Stops listening: new connections are refused; current ones are untouched. */
    public void refuse() throws IOException {
        ServerSocket current = listener;
        listener = null;
        if (current != null) {
            current.close();
            // the JDK defers the close of a socket another thread is accepting on until that thread leaves
            // accept(): until then the port may still take a connection
            Thread accepting = acceptor;
            if (accepting != null && accepting != Thread.currentThread()) {
                try {
                    accepting.join(2_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** Listens and forwards again. */
    public void restore() throws IOException {
        forward();
        if (listener == null && !closed) { // a closed proxy never listens again
            listener = listen(port);
            acceptOn(listener);
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        refuse();
        cut();
        forward(); // releases pump threads held by a black hole, so they see their sockets closed and end
    }

    private void forward() {
        synchronized (gate) {
            forwarding = true;
            gate.notifyAll();
        }
    }

    private static ServerSocket listen(int port) throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.setReuseAddress(true); // re-binds the same port right after refuse(), while old connections linger
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        return socket;
    }

    private void acceptOn(ServerSocket socket) {
        acceptor = daemon("tcp-proxy-accept-" + port, () -> {
            while (!socket.isClosed()) {
                try {
                    link(socket.accept());
                } catch (IOException stopped) {
                    return; // refuse() or close() closed the listener
                }
            }
        });
    }

    private void link(Socket client) throws IOException {
        Socket server = new Socket();
        try {
            server.connect(upstream, 2_000);
        } catch (IOException unreachable) { // the server itself refuses: so does the proxy
            Link.reset(client);
            return;
        }
        Link link = new Link(client, server);
        links.add(link);
        daemon("tcp-proxy-up-" + port, () -> pump(link, client, server));
        daemon("tcp-proxy-down-" + port, () -> pump(link, server, client));
    }

    /** Copies one direction until either side closes; a black hole holds each chunk until restored. */
    private void pump(Link link, Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                awaitForwarding();
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException | InterruptedException ended) {
            // one side closed or was reset: the other follows below
        } finally {
            link.close();
            links.remove(link);
        }
    }

    private void awaitForwarding() throws InterruptedException {
        synchronized (gate) {
            while (!forwarding) {
                gate.wait();
            }
        }
    }

    private static Thread daemon(String name, Runnable work) {
        Thread thread = new Thread(work, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** A client socket and the upstream socket it is joined to. */
    private record Link(Socket client, Socket server) {

        void reset() {
            reset(client);
            reset(server);
        }

        void close() {
            closeQuietly(client);
            closeQuietly(server);
        }

        /** Close with SO_LINGER 0: the peer gets an RST, not an orderly FIN. */
        static void reset(Socket socket) {
            try {
                socket.setSoLinger(true, 0);
            } catch (SocketException alreadyClosed) {
                // nothing left to reset
            }
            closeQuietly(socket);
        }

        private static void closeQuietly(Socket socket) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // already gone
            }
        }
    }
}

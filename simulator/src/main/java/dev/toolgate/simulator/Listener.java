package dev.toolgate.simulator;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/** A loopback listener of the simulators, plain or TLS. */
final class Listener {

    private static final int BACKLOG = 256; // the load tests open many connections at once

    private Listener() {
    }

    static HttpServer plain(int port, ExecutorService threads) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), BACKLOG);
        server.setExecutor(threads);
        return server;
    }

    /**
     * With {@code needClientAuth}, the handshake fails for a client that shows no certificate from the
     * context's CA. That origin speaks TLS 1.2 only, as IIS before Windows Server 2022 does (a common front
     * of an on-premises 1C): there the server judges the client certificate before its Finished message, so
     * the client learns of the refusal before it writes a byte of its request. Under TLS 1.3 the client's
     * handshake ends first (RFC 8446 §4.4.2.4) and the refusal arrives after the request was written.
     */
    static HttpServer https(int port, ExecutorService threads, SSLContext context, boolean needClientAuth) throws IOException {
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), BACKLOG);
        server.setHttpsConfigurator(new HttpsConfigurator(context) {
            @Override
            public void configure(HttpsParameters params) {
                SSLParameters parameters = context.getDefaultSSLParameters();
                parameters.setNeedClientAuth(needClientAuth);
                if (needClientAuth) {
                    parameters.setProtocols(new String[] {"TLSv1.2"});
                }
                params.setSSLParameters(parameters);
            }
        });
        server.setExecutor(threads);
        return server;
    }
}

package dev.toolgate.targets;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.platform.ApachePathParse;
import dev.toolgate.targets.tls.TlsMisconfigured;
import dev.toolgate.targets.tls.TlsSettings;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import dev.toolgate.trace.Trace;
import dev.toolgate.trace.TraceParent;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;

import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.config.TlsConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.HostnameVerificationPolicy;
import org.apache.hc.client5.http.ssl.NoopHostnameVerifier;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

import javax.net.ssl.SSLHandshakeException;

/**
 * HTTP to a target, classified by what the failure proves: a failed connect means nothing was sent; a timeout or a
 * dropped connection after sending means the effect may exist.
 *
 * <p>Apache HttpClient's classic client, a pool per adapter, chosen for its CPU per call (docs/benchmark.md, "The
 * target call's client"). Automatic retries are off: a request that met a closed connection is {@code Lost} and looked
 * up, never re-sent. A connection idle for a second or more is checked before use, so few requests meet a closed one.
 *
 * <p>A request ends by {@link RequestTimeouts#longest()} at the latest, whatever the target does: the read timeout
 * bounds each wait for bytes, and a deadline ends a target that answers a byte at a time. A lapsed lease relies on
 * that bound ({@code RequestTimeouts.longest(target)}).
 */
public final class TargetHttpClient implements AutoCloseable {

    private static final Set<String> BODIED = Set.of("POST", "PUT", "PATCH");

    private static final Pattern DELTA_SECONDS = Pattern.compile("\\d{1,6}");

    /** As many requests to one target at once as the server has threads to send them; more wait for a connection. */
    private static final int CONNECTIONS = 200;

    /** Ends requests past their deadline; its one thread ends when idle, so an undeployed gateway leaves none behind. */
    private static final ScheduledThreadPoolExecutor DEADLINES = deadlines();

    private final CloseableHttpClient client;
    private final long deadlineMillis;

    /** A TLS bundle that cannot be used stops this target before anything is sent ({@link TlsMisconfigured}). */
    public TargetHttpClient(Duration connectTimeout, Duration readTimeout, TlsSettings tls) {
        // JSSE checks the host name during the handshake (endpoint identification "HTTPS"), so a certificate for
        // another host fails as a handshake: nothing sent
        DefaultClientTlsStrategy hostChecked = new DefaultClientTlsStrategy(tls.context(), HostnameVerificationPolicy.BUILTIN,
                NoopHostnameVerifier.INSTANCE);
        // the request is written only after the upgrade: whatever ends the handshake (a refused client certificate
        // under TLS 1.2 shows as a broken pipe mid-handshake) left nothing at the target. Only this failure is "not
        // sent": a handshake alert read after the request left (TLS 1.3's late client-certificate refusal) is lost
        TlsSocketStrategy handshakeOrNothing = (socket, host, port, attachment, context) -> {
            try {
                return hostChecked.upgrade(socket, host, port, attachment, context);
            } catch (IOException failed) {
                throw new HandshakeFailed(host, failed);
            }
        };
        this.client = ApachePathParse.skipped(HttpClients.custom())
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                        .setTlsSocketStrategy(handshakeOrNothing)
                        .setMaxConnPerRoute(CONNECTIONS).setMaxConnTotal(CONNECTIONS)
                        .setDefaultTlsConfig(TlsConfig.custom().setHandshakeTimeout(Timeout.of(connectTimeout)).build())
                        .setDefaultConnectionConfig(ConnectionConfig.custom()
                                .setConnectTimeout(Timeout.of(connectTimeout)).setSocketTimeout(Timeout.of(readTimeout))
                                .setValidateAfterInactivity(Timeout.ofSeconds(1)).build())
                        .build())
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setConnectionRequestTimeout(Timeout.of(connectTimeout)).setResponseTimeout(Timeout.of(readTimeout))
                        // no "Upgrade: TLS" on plain GETs (some proxies refuse them), no answer to a 401 challenge
                        .setProtocolUpgradeEnabled(false).setAuthenticationEnabled(false).build())
                .disableAutomaticRetries().disableRedirectHandling().disableCookieManagement()
                .disableContentCompression().disableConnectionState()
                .build(); // no system properties: no proxy, as the JDK client had none
        this.deadlineMillis = connectTimeout.plus(readTimeout).toMillis();
    }

    /** A TLS upgrade that failed, before the request was written. */
    private static final class HandshakeFailed extends SSLHandshakeException {

        HandshakeFailed(String host, IOException cause) {
            super("the TLS handshake with " + host + " failed: " + cause);
            initCause(cause);
        }
    }

    private static ScheduledThreadPoolExecutor deadlines() {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "toolgate-target-deadlines");
            thread.setDaemon(true);
            return thread;
        });
        executor.setRemoveOnCancelPolicy(true);
        executor.setKeepAliveTime(30, TimeUnit.SECONDS);
        executor.allowCoreThreadTimeOut(true);
        return executor;
    }

    /** Closes the pool's connections; a request still under way ends with its connection. */
    @Override
    public void close() {
        client.close(CloseMode.IMMEDIATE);
    }

    /** Retry-After as delta-seconds; an HTTP date or garbage counts as absent (our own back-off applies). */
    private static Duration retryAfter(ClassicHttpResponse response) {
        Header header = response.getFirstHeader("Retry-After");
        String value = header == null ? null : header.getValue().trim();
        return value != null && DELTA_SECONDS.matcher(value).matches() ? Duration.ofSeconds(Long.parseLong(value)) : null;
    }

    public static JsonObject jsonObject(String body) {
        try (JsonReader reader = JSON.createReader(new StringReader(body))) {
            return reader.readObject();
        } catch (JsonException | IllegalStateException e) {
            return null;
        }
    }

    /** Sends a request that can create the effect if {@code gate} still permits it; otherwise nothing leaves. */
    public Exchange sendEffect(TargetRequest request, EffectGate gate) {
        EffectGate.Passage passage = gate.beforeEffect();
        if (passage instanceof EffectGate.Stop stop) {
            return new Exchange.NotSent(stop.errorCode());
        }
        if (passage instanceof EffectGate.Send) {
            return send(request);
        }
        throw new IllegalStateException("a passage this client does not know: " + passage);
    }

    /** One request as a client span; the span never names the URL's path or query: some hold a credential (Bitrix24's). */
    public Exchange send(TargetRequest request) {
        try (Step call = Spans.client("HTTP", OperationAttributes.none())) {
            String traceparent = call.traceparent();
            String traceId = Trace.traceId();
            if (traceparent != null) {
                request.header(TraceParent.HEADER, traceparent);
            } else if (traceId != null) {
                request.header(TraceParent.HEADER, TraceParent.outgoing(traceId));
            }
            call.request(request.method(), request.uri());
            Exchange exchange = exchange(request);
            if (exchange instanceof Exchange.Answered answered) {
                call.answered(answered.status());
            } else if (exchange instanceof Exchange.NotSent notSent) {
                call.outcome("not_sent").failed(notSent.errorCode());
            } else if (exchange instanceof Exchange.Lost lost) {
                call.outcome("lost").failed(lost.errorCode());
            }
            return exchange;
        }
    }

    private Exchange exchange(TargetRequest request) {
        HttpUriRequestBase outgoing = new HttpUriRequestBase(request.method(), request.uri());
        for (Map.Entry<String, String> header : request.headers()) {
            outgoing.setHeader(header.getKey(), header.getValue());
        }
        if (request.body() != null || BODIED.contains(request.method())) { // an empty one says Content-Length: 0
            String body = request.body() == null ? "" : request.body();
            outgoing.setEntity(new ByteArrayEntity(body.getBytes(StandardCharsets.UTF_8), null)); // its Content-Type is the adapter's header
        }
        AtomicBoolean expired = new AtomicBoolean();
        ScheduledFuture<?> deadline = DEADLINES.schedule(() -> {
            expired.set(true);
            outgoing.cancel();
        }, deadlineMillis, TimeUnit.MILLISECONDS);
        try {
            return client.execute(outgoing, response -> new Exchange.Answered(response.getCode(), body(response),
                    retryAfter(response)));
        } catch (IOException e) {
            return expired.get() ? new Exchange.Lost("response_timeout") : failed(e);
        } catch (RuntimeException e) {
            if (expired.get()) { // cancelled between two of the client's steps, which it reports as a state error
                return new Exchange.Lost("response_timeout");
            }
            throw e;
        } finally {
            deadline.cancel(false);
        }
    }

    /** As UTF-8, as JSON is, growing with what arrives rather than what Content-Length claims. */
    private static String body(ClassicHttpResponse response) throws IOException {
        if (response.getEntity() == null) {
            return "";
        }
        try (InputStream in = response.getEntity().getContent()) {
            return in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** By type, and each type thrown only where its class says: the connect, the pool, the TLS upgrade, or after. */
    private static Exchange failed(IOException e) {
        if (e instanceof ConnectTimeoutException || e instanceof ConnectionRequestTimeoutException) {
            return new Exchange.NotSent("connect_timeout");
        }
        if (e instanceof ConnectException || e instanceof NoRouteToHostException || e instanceof UnknownHostException) {
            return new Exchange.NotSent("connect_refused");
        }
        if (e instanceof HandshakeFailed) {
            return new Exchange.NotSent("tls_handshake_failed");
        }
        if (e instanceof SocketTimeoutException) {
            return new Exchange.Lost("response_timeout");
        }
        return new Exchange.Lost("connection_lost");
    }
}

package dev.toolgate.targets;

import static dev.toolgate.canonical.Jsons.JSON;

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

import java.io.IOException;
import java.io.StringReader;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Pattern;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;

/**
 * HTTP to a target, classified by what the failure proves: a failed connect means nothing was sent; a timeout or a
 * dropped connection after sending means the effect may exist. The JDK client never re-sends a POST by itself.
 */
public final class TargetHttpClient {

    private static final Pattern DELTA_SECONDS = Pattern.compile("\\d{1,6}");

    private final HttpClient client;
    private final Duration readTimeout;

    /** A TLS bundle that cannot be used stops this target before anything is sent ({@link TlsMisconfigured}). */
    public TargetHttpClient(Duration connectTimeout, Duration readTimeout, TlsSettings tls) {
        SSLContext context = tls.context();
        SSLParameters parameters = context.getDefaultSSLParameters();
        // the JDK client verifies host names by itself; saying so here keeps it on whatever a default becomes
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .sslContext(context)
                .sslParameters(parameters)
                .build();
        this.readTimeout = readTimeout;
    }

    /** Retry-After as delta-seconds; an HTTP date or garbage counts as absent (our own back-off applies). */
    private static Duration retryAfter(HttpResponse<?> response) {
        return response.headers().firstValue("Retry-After")
                .filter(v -> DELTA_SECONDS.matcher(v.trim()).matches())
                .map(v -> Duration.ofSeconds(Long.parseLong(v.trim())))
                .orElse(null);
    }

    public static JsonObject jsonObject(String body) {
        try (JsonReader reader = JSON.createReader(new StringReader(body))) {
            return reader.readObject();
        } catch (JsonException | IllegalStateException e) {
            return null;
        }
    }

    /** Sends a request that can create the effect if {@code gate} still permits it; otherwise nothing leaves. */
    public Exchange sendEffect(HttpRequest.Builder request, EffectGate gate) {
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
    public Exchange send(HttpRequest.Builder request) {
        try (Step call = Spans.client("HTTP", OperationAttributes.none())) {
            String traceparent = call.traceparent();
            String traceId = Trace.traceId();
            if (traceparent != null) {
                request.setHeader(TraceParent.HEADER, traceparent);
            } else if (traceId != null) {
                request.setHeader(TraceParent.HEADER, TraceParent.outgoing(traceId));
            }
            HttpRequest built = request.timeout(readTimeout).build();
            call.request(built.method(), built.uri());
            Exchange exchange = exchange(built);
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

    private Exchange exchange(HttpRequest request) {
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new Exchange.Answered(response.statusCode(), response.body(), retryAfter(response));
        } catch (HttpConnectTimeoutException e) {
            return new Exchange.NotSent("connect_timeout");
        } catch (ConnectException e) {
            return new Exchange.NotSent("connect_refused");
        } catch (SSLHandshakeException e) {
            // the request is written only after the handshake; under TLS 1.3 a late client-certificate refusal
            // shows as a dropped connection, "lost" below and looked up: safe both ways
            return new Exchange.NotSent("tls_handshake_failed");
        } catch (HttpTimeoutException e) {
            return new Exchange.Lost("response_timeout");
        } catch (IOException e) {
            return new Exchange.Lost("connection_lost");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Exchange.Lost("interrupted");
        }
    }
}

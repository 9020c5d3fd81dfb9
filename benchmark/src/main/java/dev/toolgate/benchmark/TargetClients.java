package dev.toolgate.benchmark;

import dev.toolgate.benchmark.peers.OneCInvoice;

import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.util.Timeout;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Flow;

/**
 * Which HTTP client the gateway should call its targets with, measured (docs/benchmark.md, "The target call's client"):
 * the 1C adapter's invoice POST, straight to the simulator, by the JDK {@code HttpClient}, the JDK's
 * {@code HttpURLConnection} (fixed-length streaming, so a POST is never re-sent) and Apache HttpClient 5's classic
 * pooled client (retries off), in interleaved rounds so a drift of this shared host spreads over all three; the figure
 * is this process's CPU per request and the simulators'. A development measurement, not part of a benchmark run.
 */
public final class TargetClients {

    private interface Client {
        int post(HttpRequest request) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int concurrency = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        Duration round = Duration.ofSeconds(args.length > 1 ? Integer.parseInt(args[1]) : 5);
        int port = 18_000 + (int) (ProcessHandle.current().pid() % 1000);
        try (SimulatorProcess simulators = new SimulatorProcess(port, Path.of("target", "target-clients-simulators.log"));
             CloseableHttpClient apache = apache(concurrency)) {
            HttpClient jdk = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(2)).build();
            Map<String, Client> clients = Map.of(
                    "JDK HttpClient", r -> jdk.send(r, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)).statusCode(),
                    "HttpURLConnection", TargetClients::urlConnection,
                    "Apache HttpClient 5 classic", r -> apache(apache, r));
            ProcessCpu self = ProcessCpu.of("load", List.of(ProcessHandle.current().pid()));
            Map<String, List<double[]>> figures = new java.util.TreeMap<>();
            for (int r = 0; r < 12; r++) {
                boolean warm = r < 4;
                for (Map.Entry<String, Client> client : clients.entrySet()) {
                    simulators.restart(); // empty: a full simulator's collector would be measured, not the client
                    ProcessCpu simulator = ProcessCpu.of("simulators", List.of(simulators.pid()));
                    String prefix = "clients/" + ProcessHandle.current().pid() + "/" + r + "/" + client.getKey().hashCode() + "-";
                    Load.closed(concurrency, Duration.ofSeconds(2), i -> client.getValue().post(
                            OneCInvoice.create(simulators.url(), prefix + "warm-" + i)));
                    double ownBefore = self.millis();
                    double simBefore = simulator.millis();
                    Load.Result result = Load.closed(concurrency, round, i -> {
                        int status = client.getValue().post(OneCInvoice.create(simulators.url(), prefix + i));
                        if (status != 201) {
                            throw new IllegalStateException(client.getKey() + ": " + status);
                        }
                    });
                    if (!warm) {
                        figures.computeIfAbsent(client.getKey(), k -> new ArrayList<>()).add(new double[] {
                                result.throughput(), (self.millis() - ownBefore) / result.calls(),
                                (simulator.millis() - simBefore) / result.calls(), result.millis(50), result.millis(99)});
                    }
                }
            }
            System.out.printf("c=%d, %d rounds of %d s each after 4 warm-up rounds; medians [min-max]%n", concurrency,
                    figures.values().iterator().next().size(), round.toSeconds());
            System.out.println("| client | req/s | CPU ms/req: this process (client + load loop) | simulators | p50 ms | p99 ms |");
            System.out.println("|---|---|---|---|---|---|");
            figures.forEach((name, rows) -> System.out.printf("| %s | %s | %s | %s | %s | %s |%n", name,
                    median(rows, 0, "%.0f"), median(rows, 1, "%.3f"), median(rows, 2, "%.3f"), median(rows, 3, "%.2f"),
                    median(rows, 4, "%.2f")));
        }
    }

    private static String median(List<double[]> rows, int column, String format) {
        double[] values = rows.stream().mapToDouble(r -> r[column]).sorted().toArray();
        return String.format(format + " [" + format + "–" + format + "]", values[values.length / 2], values[0],
                values[values.length - 1]);
    }

    private static int urlConnection(HttpRequest request) throws Exception {
        HttpURLConnection connection = (HttpURLConnection) request.uri().toURL().openConnection();
        connection.setConnectTimeout(2_000);
        connection.setReadTimeout(10_000);
        connection.setInstanceFollowRedirects(false);
        connection.setRequestMethod(request.method());
        request.headers().map().forEach((name, values) -> values.forEach(v -> connection.addRequestProperty(name, v)));
        byte[] body = body(request);
        connection.setDoOutput(true);
        connection.setFixedLengthStreamingMode(body.length);
        try (OutputStream out = connection.getOutputStream()) {
            out.write(body);
        }
        int status = connection.getResponseCode();
        try (InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream()) {
            new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        return status;
    }

    private static CloseableHttpClient apache(int concurrency) {
        return HttpClients.custom()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                        .setMaxConnPerRoute(Math.max(concurrency, 2)).setMaxConnTotal(Math.max(concurrency, 2) * 2).build())
                .setDefaultRequestConfig(RequestConfig.custom().setConnectionRequestTimeout(Timeout.ofSeconds(2))
                        .setResponseTimeout(Timeout.ofSeconds(10)).setRedirectsEnabled(false).build())
                .disableAutomaticRetries().disableCookieManagement().disableContentCompression().build();
    }

    private static int apache(CloseableHttpClient client, HttpRequest request) throws Exception {
        HttpPost post = new HttpPost(request.uri());
        request.headers().map().forEach((name, values) -> {
            if (!name.equalsIgnoreCase("Content-Type")) {
                values.forEach(v -> post.addHeader(name, v));
            }
        });
        post.setEntity(new StringEntity(new String(body(request), StandardCharsets.UTF_8), ContentType.APPLICATION_JSON));
        return client.execute(post, response -> {
            EntityUtils.toString(response.getEntity(), StandardCharsets.UTF_8);
            return response.getCode();
        });
    }

    /** The bytes of a JDK request's body; its string publisher hands them over at once, on the subscribing thread. */
    static byte[] body(HttpRequest request) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        request.bodyPublisher().ifPresent(publisher -> publisher.subscribe(new Flow.Subscriber<ByteBuffer>() {
            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                subscription.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(ByteBuffer item) {
                byte[] chunk = new byte[item.remaining()];
                item.get(chunk);
                bytes.writeBytes(chunk);
            }

            @Override
            public void onError(Throwable throwable) {
                throw new IllegalStateException(throwable);
            }

            @Override
            public void onComplete() {
            }
        }));
        return bytes.toByteArray();
    }
}

package dev.toolgate.simulator;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.toolgate.simulator.tls.SimulatorTls;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Starts the simulated systems on one loopback port. Run as its own process, so a test can kill
 * the gateway and keep the target's state: {@code java -cp … dev.toolgate.simulator.Simulators 18090}.
 */
public final class Simulators implements AutoCloseable {

    /** Demo infobase credentials: the simulator's own, in the same form a real 1C publication takes. */
    public static final String ONE_C_INFOBASE = "demo";
    public static final String ONE_C_USER = "agent-gw";
    public static final String ONE_C_PASSWORD = "demo-only-password";
    public static final String ONE_C_KEY_REQUISITE = "tg_OperationKey";
    /** Bitrix24 incoming-webhook credentials: a user id and a secret, carried in the URL path. */
    public static final String BITRIX24_USER = "1";
    public static final String BITRIX24_SECRET = "demo-webhook-secret";
    /**
     * The application token the portal puts in {@code auth[application_token]} of every event it sends, as it shows
     * it to the admin when the outbound webhook is made: a handler checks it to know the event is the portal's.
     */
    public static final String BITRIX24_APPLICATION_TOKEN = "7d4f1a9c2e8b5036a1f7c4d9e2b8053c";

    /** YooKassa shop credentials: the shop id and secret key of HTTP Basic. */
    public static final String YOOKASSA_SHOP_ID = "100500";
    public static final String YOOKASSA_SECRET_KEY = "test_demo-only-secret-key";

    private final HttpServer server;
    private final Map<String, HttpServer> origins;
    private final Map<String, HttpServer> httpsOrigins;
    private final HttpServer https;
    private final HttpServer mutualTls;
    private final HttpServer misnamed;
    private final SimulatorTls tls;
    private final ExecutorService threads;
    private final ScheduledExecutorService clock;
    private final Notifications notifications;

    private Simulators(Map<String, HttpServer> shared, Map<String, HttpServer> origins, Map<String, HttpServer> httpsOrigins,
                       SimulatorTls tls, ExecutorService threads, ScheduledExecutorService clock, Notifications notifications) {
        this.server = shared.get("http");
        this.https = shared.get("https");
        this.mutualTls = shared.get("mutual-tls");
        this.misnamed = shared.get("misnamed");
        this.origins = origins;
        this.httpsOrigins = httpsOrigins;
        this.tls = tls;
        this.threads = threads;
        this.clock = clock;
        this.notifications = notifications;
    }

    /** All systems on {@code port} under {@code /<system>/}, and each on an ephemeral port of its own. */
    public static Simulators start(int port) throws IOException {
        return start(port, Map.of());
    }

    /**
     * Also each system at an origin of its own with its real paths, as some client SDKs take only an origin;
     * {@code originPorts} fixes those ports by system name. Every system is served over HTTPS too ({@link #tls()}).
     */
    public static Simulators start(int port, Map<String, Integer> originPorts) throws IOException {
        return start(port, originPorts, YooKassaApi.RETRY_MS);
    }

    /** The same, with YooKassa's notification retries at {@code yooKassaRetryMs}: for a test that waits out every retry. */
    static Simulators start(int port, Map<String, Integer> originPorts, List<Long> yooKassaRetryMs) throws IOException {
        // The JDK server writes headers and body separately; with Nagle's algorithm on, every answer
        // then waits ~40 ms for a delayed ACK. Read once, when the server classes load: set it first.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        Faults faults = new Faults();
        // the systems' own timers (a pending payment's due time, a notification's next try); never a request's thread
        ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor(Notifications.daemon("simulator-clock"));
        Notifications notifications = new Notifications(clock);
        OneCOData oneC = new OneCOData(ONE_C_INFOBASE, ONE_C_USER, ONE_C_PASSWORD, ONE_C_KEY_REQUISITE, faults);
        Bitrix24Rest bitrix24 = new Bitrix24Rest(BITRIX24_USER, BITRIX24_SECRET, BITRIX24_APPLICATION_TOKEN, faults, notifications);
        YooKassaApi yooKassa = new YooKassaApi(YOOKASSA_SHOP_ID, YOOKASSA_SECRET_KEY, faults, notifications, clock,
                yooKassaRetryMs);
        List<SimulatedSystem> systems = List.of(oneC, bitrix24, yooKassa);
        systems.forEach(SimulatedSystem::reset);
        ExecutorService threads = Executors.newCachedThreadPool(); // delayed requests must not block the others
        SimulatorTls tls = SimulatorTls.create();
        Map<String, HttpServer> shared = new LinkedHashMap<>();
        shared.put("http", mounted(Listener.plain(port, threads), systems));
        shared.put("https", mounted(Listener.https(0, threads, tls.serverContext(), false), systems));
        shared.put("mutual-tls", mounted(Listener.https(0, threads, tls.mutualContext(), true), systems));
        shared.put("misnamed", mounted(Listener.https(0, threads, tls.misnamedContext(), false), systems));
        shared.get("http").createContext("/_control/", new Control(faults, notifications, systems));
        Map<String, HttpServer> origins = new LinkedHashMap<>();
        Map<String, HttpServer> httpsOrigins = new LinkedHashMap<>();
        for (SimulatedSystem system : systems) {
            origins.put(system.name(), own(Listener.plain(originPorts.getOrDefault(system.name(), 0), threads), system));
            httpsOrigins.put(system.name(), own(Listener.https(0, threads, tls.serverContext(), false), system));
        }
        shared.values().forEach(HttpServer::start);
        origins.values().forEach(HttpServer::start);
        httpsOrigins.values().forEach(HttpServer::start);
        return new Simulators(shared, origins, httpsOrigins, tls, threads, clock, notifications);
    }

    private static HttpServer mounted(HttpServer server, List<SimulatedSystem> systems) {
        systems.forEach(system -> server.createContext("/" + system.name() + "/", (HttpHandler) system));
        return server;
    }

    private static HttpServer own(HttpServer server, SimulatedSystem system) {
        server.createContext("/", (HttpHandler) system);
        return server;
    }

    /** The origin serving only {@code system}, with its real paths, e.g. {@code http://127.0.0.1:41234}. */
    public String origin(String system) {
        return "http://127.0.0.1:" + origins.get(system).getAddress().getPort();
    }

    /** The same system over HTTPS, e.g. {@code https://localhost:41235}: the origin an HTTPS-only SDK is given. */
    public String httpsOrigin(String system) {
        return "https://localhost:" + httpsOrigins.get(system).getAddress().getPort();
    }

    /** All systems under {@code /<system>/} over HTTPS, with a certificate for localhost and 127.0.0.1. */
    public String httpsBaseUrl() {
        return "https://127.0.0.1:" + https.getAddress().getPort();
    }

    /** The same over HTTPS that refuses a client without a certificate from {@link #tls()}'s CA. */
    public String mutualTlsBaseUrl() {
        return "https://127.0.0.1:" + mutualTls.getAddress().getPort();
    }

    /** The same over HTTPS whose certificate, from the same CA, names {@link SimulatorTls#MISNAMED_HOST} only. */
    public String misnamedBaseUrl() {
        return "https://127.0.0.1:" + misnamed.getAddress().getPort();
    }

    /** This run's CA and the files it wrote: the trust bundle, a client certificate and key. */
    public SimulatorTls tls() {
        return tls;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    /** The 1C OData root the gateway's {@code toolgate.target.1c.url} should name: over HTTPS, as real targets are. */
    public String oneCUrl() {
        return oneCUrl(httpsBaseUrl());
    }

    /** The 1C OData root under the simulators' shared {@code base}, plain or HTTPS. */
    public static String oneCUrl(String base) {
        return base + "/1c/" + ONE_C_INFOBASE + "/odata/standard.odata";
    }

    /** The webhook URL the gateway's {@code toolgate.target.bitrix24.url} should name, over HTTPS. */
    public String bitrix24Url() {
        return bitrix24Url(httpsBaseUrl());
    }

    public static String bitrix24Url(String base) {
        return base + "/bitrix24/rest/" + BITRIX24_USER + "/" + BITRIX24_SECRET + "/";
    }

    /** The API root the gateway's {@code toolgate.target.yookassa.url} should name, over HTTPS. */
    public String yooKassaUrl() {
        return yooKassaUrl(httpsBaseUrl());
    }

    public static String yooKassaUrl(String base) {
        return base + "/yookassa/v3/";
    }

    /** {@code toolgate.target.<system>.tls.trust-bundle}: this run's CA, which signed every HTTPS origin here. */
    public Map<String, String> trustSettings(String system) {
        return Map.of("toolgate.target." + system + ".tls.trust-bundle", tls.caBundle().toString());
    }

    /**
     * The gateway settings that reach this simulator's 1C HTTP service through the generic HTTP adapter:
     * the configuration docs/operations.md shows, as MicroProfile Config properties, over HTTPS trusting {@link #tls()}.
     */
    public Map<String, String> oneCHttpServiceSettings() {
        String service = httpsBaseUrl() + "/1c/" + ONE_C_INFOBASE + "/hs/agentgw/v1/documents/{{key}}";
        String p = "toolgate.target.1c.http.";
        Map<String, String> settings = new LinkedHashMap<>(trustSettings("1c"));
        settings.put("toolgate.target.1c.adapter", "http");
        settings.put(p + "method", "PUT");
        settings.put(p + "url", service);
        settings.put(p + "body", "{\"order_id\":{{payload.order_id}},\"amount_minor\":{{payload.amount_minor}},"
                + "\"currency\":{{payload.currency}}}");
        settings.put(p + "auth", "basic");
        settings.put(p + "user", ONE_C_USER);
        settings.put(p + "password", ONE_C_PASSWORD);
        settings.put(p + "idempotency-header", "X-Operation-Key");
        settings.put(p + "dedup-window-hours", "87600"); // the service deduplicates by key for as long as the document exists
        settings.put(p + "id-pointer", "/ref");
        settings.put(p + "error-code-pointer", "/error");
        settings.put(p + "classify", "400:final,404:final,423:retry,5xx:unknown,503:retry");
        settings.put(p + "lookup.url", service);
        settings.put(p + "lookup.items-pointer", "/items");
        return settings;
    }

    /** {@code toolgate.target.1c.currency-keys} for this simulator's currency catalog. */
    public static String oneCCurrencyKeys() {
        StringBuilder spec = new StringBuilder();
        OneCOData.CURRENCY_KEYS.forEach((code, ref) -> spec.append(spec.length() == 0 ? "" : ";").append(code).append('=').append(ref));
        return spec.toString();
    }

    public static String oneCOrganizationKey() {
        return OneCOData.ORGANIZATION_KEY;
    }

    @Override
    public void close() {
        List.of(server, https, mutualTls, misnamed).forEach(s -> s.stop(0));
        origins.values().forEach(o -> o.stop(0));
        httpsOrigins.values().forEach(o -> o.stop(0));
        threads.shutdownNow();
        clock.shutdownNow();
        notifications.close();
        tls.delete();
    }

    public static void main(String[] args) throws IOException {
        Simulators simulators = start(args.length > 0 ? Integer.parseInt(args[0]) : 18090);
        // stopped by SIGTERM (SimulatorProcess, the local run's Ctrl+C): the CA's files go with the process
        Runtime.getRuntime().addShutdownHook(new Thread(simulators.tls::delete, "simulator-tls-cleanup"));
        System.out.println("simulators listening on " + simulators.baseUrl() + " (1C OData: " + simulators.oneCUrl()
                + "); own origins: " + simulators.origins.keySet().stream().map(s -> s + " " + simulators.origin(s)).toList()
                + "; over HTTPS: " + simulators.httpsBaseUrl() + " and " + simulators.httpsOrigins.keySet().stream()
                .map(s -> s + " " + simulators.httpsOrigin(s)).toList() + ", trusting " + simulators.tls.caBundle());
    }
}

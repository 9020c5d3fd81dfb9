package dev.toolgate.simulator;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

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

    /** YooKassa shop credentials: the shop id and secret key of HTTP Basic. */
    public static final String YOOKASSA_SHOP_ID = "100500";
    public static final String YOOKASSA_SECRET_KEY = "test_demo-only-secret-key";

    private final HttpServer server;
    private final Map<String, HttpServer> origins;
    private final ExecutorService threads;

    private Simulators(HttpServer server, Map<String, HttpServer> origins, ExecutorService threads) {
        this.server = server;
        this.origins = origins;
        this.threads = threads;
    }

    /** All systems on {@code port} under {@code /<system>/}, and each on an ephemeral port of its own. */
    public static Simulators start(int port) throws IOException {
        return start(port, Map.of());
    }

    /**
     * Also serves each system at an origin of its own, with the real system's paths: some client SDKs
     * take only an origin (Bitrix24's builds {@code <origin>/rest/<user>/<secret>/<method>}).
     * {@code originPorts} fixes those ports by system name; the others are ephemeral.
     */
    public static Simulators start(int port, Map<String, Integer> originPorts) throws IOException {
        // The JDK server writes headers and body separately; with Nagle's algorithm on, every answer
        // then waits ~40 ms for a delayed ACK. Read once, when the server classes load: set it first.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        Faults faults = new Faults();
        OneCOData oneC = new OneCOData(ONE_C_INFOBASE, ONE_C_USER, ONE_C_PASSWORD, ONE_C_KEY_REQUISITE, faults);
        Bitrix24Rest bitrix24 = new Bitrix24Rest(BITRIX24_USER, BITRIX24_SECRET, faults);
        YooKassaApi yooKassa = new YooKassaApi(YOOKASSA_SHOP_ID, YOOKASSA_SECRET_KEY, faults);
        List<SimulatedSystem> systems = List.of(oneC, bitrix24, yooKassa);
        systems.forEach(SimulatedSystem::reset);
        ExecutorService threads = Executors.newCachedThreadPool(); // delayed requests must not block the others
        HttpServer server = listen(port, threads);
        Map<String, HttpServer> origins = new LinkedHashMap<>();
        for (SimulatedSystem system : systems) {
            server.createContext("/" + system.name() + "/", (HttpHandler) system);
            HttpServer origin = listen(originPorts.getOrDefault(system.name(), 0), threads);
            origin.createContext("/", (HttpHandler) system);
            origins.put(system.name(), origin);
        }
        server.createContext("/_control/", new Control(faults, systems));
        server.start();
        origins.values().forEach(HttpServer::start);
        return new Simulators(server, origins, threads);
    }

    private static HttpServer listen(int port, ExecutorService threads) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 256);
        server.setExecutor(threads);
        return server;
    }

    /** The origin serving only {@code system}, with its real paths, e.g. {@code http://127.0.0.1:41234}. */
    public String origin(String system) {
        return "http://127.0.0.1:" + origins.get(system).getAddress().getPort();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    /** The 1C OData root the gateway's {@code toolgate.target.1c.url} should name. */
    public String oneCUrl() {
        return baseUrl() + "/1c/" + ONE_C_INFOBASE + "/odata/standard.odata";
    }

    /** The webhook URL the gateway's {@code toolgate.target.bitrix24.url} should name. */
    public String bitrix24Url() {
        return baseUrl() + "/bitrix24/rest/" + BITRIX24_USER + "/" + BITRIX24_SECRET + "/";
    }

    /** The API root the gateway's {@code toolgate.target.yookassa.url} should name. */
    public String yooKassaUrl() {
        return baseUrl() + "/yookassa/v3/";
    }

    /**
     * The gateway settings that reach this simulator's 1C HTTP service through the generic HTTP adapter:
     * the configuration the README shows, as MicroProfile Config properties.
     */
    public Map<String, String> oneCHttpServiceSettings() {
        String service = baseUrl() + "/1c/" + ONE_C_INFOBASE + "/hs/agentgw/v1/documents/{{key}}";
        String p = "toolgate.target.1c.http.";
        Map<String, String> settings = new LinkedHashMap<>();
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
        server.stop(0);
        origins.values().forEach(o -> o.stop(0));
        threads.shutdownNow();
    }

    public static void main(String[] args) throws IOException {
        Simulators simulators = start(args.length > 0 ? Integer.parseInt(args[0]) : 18090);
        System.out.println("simulators listening on " + simulators.baseUrl() + " (1C OData: " + simulators.oneCUrl()
                + "); own origins: " + simulators.origins.keySet().stream().map(s -> s + " " + simulators.origin(s)).toList());
    }
}

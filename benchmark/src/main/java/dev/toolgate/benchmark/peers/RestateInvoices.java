package dev.toolgate.benchmark.peers;

import dev.restate.sdk.Context;
import dev.restate.sdk.annotation.Handler;
import dev.restate.sdk.annotation.Service;

import java.net.http.HttpClient;

/**
 * The Restate peer's service as Restate's guide writes one: a handler whose one side effect, the call to 1C, runs
 * in {@code ctx.run}, so Restate journals its result. The caller sends the agent's key as Restate's
 * {@code idempotency-key}: the ingress answers a second call with the first one's result without invoking the handler.
 */
@Service(name = "Invoices")
public final class RestateInvoices {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** What the caller keeps of the created document. */
    public record Document(String document) {
    }

    private final String simulatorsUrl;

    public RestateInvoices(String simulatorsUrl) {
        this.simulatorsUrl = simulatorsUrl;
    }

    @Handler
    public Document create(Context ctx, Order order) {
        // the ingress passes the call's headers to the handler: the document is keyed as the gateway keys it, by the agent's key
        String key = ctx.request().headers().get("idempotency-key");
        return new Document(ctx.run("send to 1C", String.class, () -> OneCInvoice.send(HTTP, simulatorsUrl, "restate/" + key)));
    }

    /** The agent's payload, as the gateway gets it. */
    public record Order(String order_id, long amount_minor, String currency) {
    }
}

package dev.toolgate.gateway.console;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Whether the identity provider answers: its discovery document fetched within {@link #TIMEOUT}. Kept for
 * {@link #FRESH}, so that people arriving while it is down cost one fetch per five seconds, not one each, and a
 * provider that comes back is seen within five seconds.
 */
final class IdentityProviderCheck {

    static final Duration FRESH = Duration.ofSeconds(5);
    /** Connect and answer: a provider slower than this would time the sign-in out anyway. */
    static final Duration TIMEOUT = Duration.ofSeconds(2);

    private final BooleanSupplier fetch;
    private final Supplier<Instant> clock;
    private Instant checkedAt;
    private boolean answered;

    IdentityProviderCheck(BooleanSupplier fetch, Supplier<Instant> clock) {
        this.fetch = fetch;
        this.clock = clock;
    }

    /** The provider at {@code issuer}, asked for {@code <issuer>/.well-known/openid-configuration}. */
    static IdentityProviderCheck of(String issuer) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).followRedirects(HttpClient.Redirect.NEVER).build();
        HttpRequest discovery = HttpRequest.newBuilder(URI.create(issuer.replaceAll("/+$", "") + "/.well-known/openid-configuration"))
                .timeout(TIMEOUT).GET().build();
        return new IdentityProviderCheck(() -> {
            try {
                return http.send(discovery, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }, Instant::now);
    }

    /** As last seen, if seen within {@link #FRESH}; else asked now. */
    synchronized boolean answers() {
        Instant now = clock.get();
        if (checkedAt == null || !now.isBefore(checkedAt.plus(FRESH))) {
            return answersNow();
        }
        return answered;
    }

    /** Asked now, whatever was seen before: after something went wrong on the way to it. */
    synchronized boolean answersNow() {
        answered = fetch.getAsBoolean();
        checkedAt = clock.get();
        return answered;
    }
}

package dev.toolgate.gateway.console;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * Whether the identity provider's discovery document comes within {@link #TIMEOUT}. An answer is kept for
 * {@link #FRESH}, so a down provider costs one fetch per five seconds; one fetch at a time, shared, nobody holding a
 * lock. Monotonic time: a wall clock set back must not prolong a "down".
 */
final class IdentityProviderCheck {

    private static final Logger LOG = Logger.getLogger(IdentityProviderCheck.class.getName());
    static final Duration FRESH = Duration.ofSeconds(5);
    /** As long as the sign-in mechanism gives the provider: a slower one would fail the sign-in anyway. */
    static final Duration TIMEOUT = Duration.ofSeconds(5);
    /** A look younger than this is what "now" means after something went wrong on the way to the provider. */
    private static final Duration RECENT = Duration.ofSeconds(1);

    private final Supplier<CompletableFuture<Boolean>> fetch;
    private final LongSupplier nanos;
    private final Duration timeout;
    private volatile Seen seen;
    private CompletableFuture<Boolean> inFlight; // guarded by this

    private record Seen(boolean answered, long at) {
    }

    IdentityProviderCheck(Supplier<CompletableFuture<Boolean>> fetch, LongSupplier nanos) {
        this(fetch, nanos, TIMEOUT);
    }

    /** {@code timeout} in place of {@link #TIMEOUT}: for a test that waits it out. */
    IdentityProviderCheck(Supplier<CompletableFuture<Boolean>> fetch, LongSupplier nanos, Duration timeout) {
        this.fetch = fetch;
        this.nanos = nanos;
        this.timeout = timeout;
    }

    static IdentityProviderCheck of(String issuer) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).followRedirects(HttpClient.Redirect.NEVER).build();
        HttpRequest discovery = HttpRequest.newBuilder(URI.create(issuer.replaceAll("/+$", "") + "/.well-known/openid-configuration"))
                .timeout(TIMEOUT).GET().build();
        // the whole exchange bounded, body included: a provider that sends headers and then stalls is not answering
        return new IdentityProviderCheck(() -> http.sendAsync(discovery, HttpResponse.BodyHandlers.discarding())
                .thenApply(response -> response.statusCode() == 200), System::nanoTime);
    }

    boolean answers() {
        Seen last = seen;
        return last != null && age(last).compareTo(FRESH) < 0 ? last.answered() : look();
    }

    /** Looked at now, unless a look started within the last second (after a failure on the way to it). */
    boolean answersNow() {
        Seen last = seen;
        return last != null && age(last).compareTo(RECENT) < 0 ? last.answered() : look();
    }

    private Duration age(Seen last) {
        return Duration.ofNanos(nanos.getAsLong() - last.at());
    }

    private boolean look() {
        CompletableFuture<Boolean> look;
        synchronized (this) { // only to start one fetch: it runs, and is waited for, outside the lock
            if (inFlight == null) {
                long started = nanos.getAsLong();
                CompletableFuture<Boolean> mine = new CompletableFuture<>();
                inFlight = mine;
                fetch.get().orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).exceptionally(failed -> false)
                        .whenComplete((answered, e) -> {
                            record(Boolean.TRUE.equals(answered), started, mine);
                            mine.complete(Boolean.TRUE.equals(answered));
                        });
                look = mine;
            } else {
                look = inFlight;
            }
        }
        try {
            return look.get(timeout.toMillis() + 500, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }

    private void record(boolean answered, long started, CompletableFuture<Boolean> look) {
        Seen before = seen;
        seen = new Seen(answered, started);
        synchronized (this) {
            if (inFlight == look) {
                inFlight = null;
            }
        }
        if (before == null ? !answered : before.answered() != answered) { // once per change, not once per person turned away
            LOG.info(() -> "console: the identity provider " + (answered ? "answers again" : "does not answer: signing in answers 503"));
        }
    }
}

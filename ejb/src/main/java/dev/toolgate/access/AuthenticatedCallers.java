package dev.toolgate.access;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * Who a bearer token is: the callers this instance has authenticated, held for a while, and the table asked on a miss.
 * A plain bean, not an EJB: a token every request presents is almost always cached, and the hit needs no transaction and
 * no container call around it; only the miss goes through {@link Principals}, whose read needs the journal.
 */
@ApplicationScoped
public class AuthenticatedCallers {

    /** How long an unannounced token change could still be honoured here; announced ones take effect at once; 0: no cache. */
    @Inject
    @ConfigProperty(name = "toolgate.auth.cache-seconds", defaultValue = "60")
    int lifetimeSeconds;

    /** 10,000 live principals is far more than a deployment has agents; past it the cache starts over. */
    @Inject
    @ConfigProperty(name = "toolgate.auth.cache-size", defaultValue = "10000")
    int capacity;

    @Inject
    Principals principals;

    private CallerCache cache;

    @PostConstruct
    void create() {
        cache = new CallerCache(Duration.ofSeconds(Math.max(0, lifetimeSeconds)), Math.max(1, capacity),
                PrincipalChangeListener.HEARING_LAPSE, Clock.systemUTC());
    }

    /** From this instance's cache when it holds the token, else from the table (and then cached). */
    public Optional<Caller> authenticate(String token) {
        String digest = Tokens.digest(token);
        Optional<Caller> cached = cache.get(digest);
        if (cached.isPresent()) {
            return cached;
        }
        long stamp = cache.stamp(); // before the read: a change announced while it runs keeps its answer out of the cache
        Optional<Caller> caller = principals.byDigest(digest);
        caller.ifPresent(found -> cache.put(digest, found, stamp));
        return caller;
    }

    public CallerCache cache() {
        return cache;
    }
}

package dev.toolgate.access;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Clock;
import java.time.Duration;

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

    private CallerCache cache;

    @PostConstruct
    void create() {
        cache = new CallerCache(Duration.ofSeconds(Math.max(0, lifetimeSeconds)), Math.max(1, capacity),
                PrincipalChangeListener.HEARING_LAPSE, Clock.systemUTC());
    }

    public CallerCache cache() {
        return cache;
    }
}

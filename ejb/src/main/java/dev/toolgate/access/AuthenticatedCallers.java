package dev.toolgate.access;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Clock;
import java.time.Duration;

/** This instance's {@link CallerCache}, sized and timed from configuration. */
@ApplicationScoped
public class AuthenticatedCallers {

    /**
     * 60 s: how long a token change that was never announced (see {@link PrincipalChangeListener})
     * could still be honoured here. Announced changes take effect at once; 0 turns the cache off and
     * every request reads the principal table.
     */
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

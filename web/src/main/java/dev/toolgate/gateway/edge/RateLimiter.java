package dev.toolgate.gateway.edge;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A token bucket per principal, shared by REST and MCP, so one runaway agent cannot starve the others. Per instance:
 * n instances give a principal n times the rate, which scales with capacity and needs no shared state.
 */
@ApplicationScoped
public class RateLimiter {

    @Inject
    @ConfigProperty(name = "toolgate.rate-limit.per-second", defaultValue = "50")
    double perSecond;

    @Inject
    @ConfigProperty(name = "toolgate.rate-limit.burst", defaultValue = "100")
    double burst;

    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    public Duration acquire(String principalId) {
        return acquire(principalId, perSecond, burst);
    }

    /** The same for a bucket with a rate of its own ({@code bucket} must not be a principal's id: a target's notifications). */
    public Duration acquire(String bucket, double perSecond, double burst) {
        return buckets.computeIfAbsent(bucket, id -> new Bucket(burst)).take(perSecond, burst, System.nanoTime());
    }

    private static final class Bucket {
        private double tokens;
        private long last = System.nanoTime();

        Bucket(double tokens) {
            this.tokens = tokens;
        }

        synchronized Duration take(double perSecond, double burst, long now) {
            tokens = Math.min(burst, tokens + (now - last) / 1e9 * perSecond);
            last = now;
            if (tokens >= 1) {
                tokens -= 1;
                return Duration.ZERO;
            }
            return Duration.ofMillis((long) Math.ceil((1 - tokens) / perSecond * 1000));
        }
    }
}

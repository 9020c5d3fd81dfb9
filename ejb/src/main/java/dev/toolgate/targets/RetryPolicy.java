package dev.toolgate.targets;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/** Bounded retries of transient failures, jittered so agents retrying together do not hit a recovering target together. */
public record RetryPolicy(int maxAttempts, Duration initialDelay, double multiplier, Duration maxDelay, boolean jitter) {

    /** 4 attempts, 500 ms, ×2, 5 s cap, jitter on: enough for a target's brief hiccup, short enough for an agent's call. */
    public static final RetryPolicy DEFAULT = new RetryPolicy(4, Duration.ofMillis(500), 2.0, Duration.ofSeconds(5), true);

    public RetryPolicy {
        if (maxAttempts < 1 || multiplier < 1.0 || initialDelay.isNegative() || maxDelay.compareTo(initialDelay) < 0) {
            throw new IllegalArgumentException("retry policy out of range: " + maxAttempts + " attempts, "
                    + initialDelay + " ×" + multiplier + " up to " + maxDelay);
        }
    }

    public boolean exhausted(int attemptsMade) {
        return attemptsMade >= maxAttempts;
    }

    /** Equal jitter: a wait never shrinks below half its step. A target's {@code Retry-After} is a floor. */
    public Duration delayBefore(int nextAttempt, Duration retryAfter, DoubleSupplier random) {
        double step = initialDelay.toMillis() * Math.pow(multiplier, Math.max(0, nextAttempt - 2));
        long capped = (long) Math.min(step, maxDelay.toMillis());
        long delay = jitter ? capped / 2 + (long) (random.getAsDouble() * (capped - capped / 2)) : capped;
        return retryAfter == null || retryAfter.toMillis() <= delay ? Duration.ofMillis(delay) : retryAfter;
    }

    public boolean waitableInCall(Duration wait) {
        return wait.compareTo(maxDelay) <= 0;
    }
}

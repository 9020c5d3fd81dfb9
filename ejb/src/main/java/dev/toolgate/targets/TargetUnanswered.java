package dev.toolgate.targets;

/**
 * A read the target did not answer (unreachable, 5xx, not JSON): nothing can be said about its object now. What a
 * read that is not an effect throws ({@link PaymentCoverage}, {@link AnnouncedObjects}); the caller says so, or tries later.
 */
public final class TargetUnanswered extends RuntimeException {

    public TargetUnanswered(String why) {
        super(why);
    }
}

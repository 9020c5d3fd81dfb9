package dev.toolgate.targets;

import java.util.List;

/**
 * An adapter to one business system: the only code that knows its fields, its idempotency mechanism and what its
 * answers prove. Called with no database transaction open.
 */
public interface Target extends AutoCloseable {

    String system();

    Outcome execute(Attempt attempt);

    /** Whether an object carrying our key exists. */
    Lookup lookup(Attempt attempt);

    /**
     * How many attempts of {@code operation} one request may look up together ({@link #lookupAll}); 1 where the target
     * is asked for one key at a time.
     */
    default int lookupBatch(String operation) {
        return 1;
    }

    /**
     * {@link #lookup} of each attempt, answers in their order, in as few requests as the target allows: the reconcile
     * job asks this for the attempts of one operation it holds together. Each answer means what {@link #lookup}'s
     * would; one the adapter cannot attribute to a key from a shared answer it asks for alone.
     */
    default List<Lookup> lookupAll(List<Attempt> attempts) {
        return attempts.stream().map(this::lookup).toList();
    }

    /** Lets go of the connections it holds: the gateway is stopping or being redeployed. */
    @Override
    default void close() {
    }
}

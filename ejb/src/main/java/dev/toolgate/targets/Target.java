package dev.toolgate.targets;

/**
 * An adapter to one business system: the only code that knows its fields, its idempotency mechanism and what its
 * answers prove. Called with no database transaction open.
 */
public interface Target {

    String system();

    Outcome execute(Attempt attempt);

    /** Whether an object carrying our key exists. */
    Lookup lookup(Attempt attempt);
}

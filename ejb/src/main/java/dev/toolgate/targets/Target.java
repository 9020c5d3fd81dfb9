package dev.toolgate.targets;

/**
 * An adapter to one business system: the only code that knows its field names, its idempotency
 * mechanism and what its answers prove. {@code registry.TargetRegistry} builds one per configured system.
 */
public interface Target {

    /** The name agents use in {@code "target"}, e.g. {@code 1c}. */
    String system();

    /** Sends one attempt. Called with no database transaction open. */
    Outcome execute(Attempt attempt);

    /** Asks the system whether an object carrying our key exists. Called with no database transaction open. */
    Lookup lookup(Attempt attempt);
}

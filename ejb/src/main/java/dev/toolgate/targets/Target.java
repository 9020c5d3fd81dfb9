package dev.toolgate.targets;

/** An adapter to one business system. Implementations are CDI beans; {@link Targets} finds them. */
public interface Target {

    /** The name agents use in {@code "target"}, e.g. {@code 1c}. */
    String system();

    /** False when this gateway has no configuration for the system: its operations are refused up front. */
    boolean configured();

    /** Sends one attempt. Called with no database transaction open. */
    Outcome execute(Dispatch dispatch);

    /** Asks the system whether an object carrying our key exists. Called with no database transaction open. */
    Lookup lookup(Dispatch dispatch);
}

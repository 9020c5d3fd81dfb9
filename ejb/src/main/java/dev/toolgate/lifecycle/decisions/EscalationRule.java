package dev.toolgate.lifecycle.decisions;

/**
 * A person must decide at once when two objects carry the key (a duplicate: nothing automatic can undo it), or when
 * one attempt's look-ups reach the limit without settling it.
 */
public final class EscalationRule {

    private EscalationRule() {
    }

    /** {@code lookUpsMade}: of the current attempt, this one included; {@code limit}: {@code toolgate.reconcile.max-attempts}. */
    public static boolean escalates(boolean duplicate, int lookUpsMade, int limit) {
        return duplicate || lookUpsMade >= limit;
    }
}

package dev.toolgate.lifecycle;

/**
 * When reconciliation gives up and a person must decide: at once when two objects carry the key (a
 * duplicate already happened: nothing automatic can undo it), or when the look-ups of one attempt
 * reach the limit without settling it.
 */
public final class EscalationRule {

    private EscalationRule() {
    }

    /**
     * @param duplicate   the look-up found more than one object carrying the key
     * @param lookUpsMade look-ups of the current attempt, this one included
     * @param limit       {@code toolgate.reconcile.max-attempts}
     */
    public static boolean escalates(boolean duplicate, int lookUpsMade, int limit) {
        return duplicate || lookUpsMade >= limit;
    }
}

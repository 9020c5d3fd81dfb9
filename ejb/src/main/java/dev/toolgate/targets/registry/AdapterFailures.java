package dev.toolgate.targets.registry;

import dev.toolgate.targets.Attempt;
import dev.toolgate.targets.EffectGate;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.Outcome;
import dev.toolgate.trace.StructuredLog;

import java.util.Map;
import java.util.logging.Logger;

/**
 * An adapter that threw: a bug or an unreadable answer, never a reason to leave a row half-done. Not sent: safe to
 * try again; possibly sent ({@link EffectGate#effectMayHaveLeft}): unknown, looked up by key.
 */
final class AdapterFailures {

    /** The error code the journal records; the incident id in the log joins it to the stack frame. */
    static final String ERROR_CODE = "adapter_error";
    private static final Logger LOG = Logger.getLogger("dev.toolgate.operations");

    private AdapterFailures() {
    }

    static Outcome ofExecute(String system, Attempt dispatch, RuntimeException e) {
        boolean mayHaveLeft = dispatch.gate().effectMayHaveLeft();
        incident(system, mayHaveLeft ? "execute_after_send" : "execute_before_send", e);
        return mayHaveLeft ? new Outcome.Unknown(ERROR_CODE, null) : new Outcome.Transient(ERROR_CODE, null, null);
    }

    static Lookup ofLookup(String system, RuntimeException e) {
        incident(system, "lookup", e);
        return new Lookup.Unavailable(ERROR_CODE);
    }

    private static void incident(String system, String phase, RuntimeException e) {
        StructuredLog.incident(LOG, "adapter failure", Map.of("target", system, "phase", phase), e);
    }
}

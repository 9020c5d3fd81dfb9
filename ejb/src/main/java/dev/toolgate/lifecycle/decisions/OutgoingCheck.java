package dev.toolgate.lifecycle.decisions;

import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import jakarta.json.JsonObject;

/**
 * The last check before a target is called: the operation's own leased attempt, and a payload equal to the recorded
 * one, so an agent's model cannot change an approved amount on the way out, whatever path the payload took.
 */
public final class OutgoingCheck {

    private OutgoingCheck() {
    }

    /** Null when {@code payload} may be sent for {@code attempt}; otherwise why not. */
    public static String refusal(OperationView attempt, JsonObject payload) {
        if (attempt.status() != OperationStatus.STARTED || attempt.attemptCount() < 1) {
            return "attempt " + attempt.attemptCount() + " is " + attempt.status().dbName() + ", not leased";
        }
        if (payload.size() != attempt.payload().size() + attempt.withheldFields().size()) {
            return "payload fields differ from the journal's";
        }
        for (var field : attempt.payload().entrySet()) {
            if (!field.getValue().equals(payload.get(field.getKey()))) {
                return "payload field " + field.getKey() + " differs from the journal's";
            }
        }
        for (String withheld : attempt.withheldFields()) {
            if (!payload.containsKey(withheld)) {
                return "withheld field " + withheld + " is missing";
            }
        }
        return null;
    }
}

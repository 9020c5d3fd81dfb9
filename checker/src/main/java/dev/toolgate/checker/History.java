package dev.toolgate.checker;

import java.time.Instant;
import java.util.List;

/**
 * What one fault run left behind, gathered from outside the gateway: every answer each agent got, the journal read
 * directly, what the targets received and hold, and the faults armed. The gateway's own view of itself is not in it.
 *
 * @param operations one entry per key the run used
 * @param outages    when the journal or a gateway was away on purpose: the only times an agent may be told 503 or get no answer
 */
public record History(List<Operation> operations, List<Outage> outages) {

    public History {
        operations = List.copyOf(operations);
        outages = List.copyOf(outages);
    }

    /**
     * One key's story.
     *
     * @param system      the target it was sent to ({@code 1c}, {@code bitrix24}, {@code yookassa})
     * @param answers     every answer an agent got for it, retries while judging included
     * @param row         its journal row, or null when the journal holds none
     * @param objects     the ids of the business objects at the target that carry the key
     * @param creates     every create request the target received with the key, in order
     * @param armed       the faults armed for it, with how often each fired
     * @param mayEscalate whether its fault plan can leave it for a person (an ambiguous look-up, a target away past
     *                    the reconcile budget); an escalation elsewhere is a defect
     */
    public record Operation(String key, String system, List<Answer> answers, Row row, List<String> objects,
                            List<Create> creates, List<Armed> armed, boolean mayEscalate) {

        public Operation {
            answers = List.copyOf(answers);
            objects = List.copyOf(objects);
            creates = List.copyOf(creates);
            armed = List.copyOf(armed);
        }
    }

    /**
     * One answer an agent got.
     *
     * @param httpStatus  the HTTP status, or {@link #NO_ANSWER} when the call ended without one
     * @param opStatus    the operation's status in the answer's body ({@code succeeded}, …), or null
     * @param objectId    the target object the answer names, or null
     * @param problem     the problem type's last segment, or null
     * @param retryAfter  whether it carried {@code Retry-After}
     */
    public record Answer(int httpStatus, String opStatus, String objectId, String problem, boolean retryAfter, Instant at) {

        public static final int NO_ANSWER = -1;

        /** The agent was told its operation succeeded: an acknowledgement the journal and the target must honour. */
        boolean acknowledged() {
            return (httpStatus == 200 || httpStatus == 201) && "succeeded".equals(opStatus);
        }
    }

    /** The journal's row as read by SQL. */
    public record Row(String status, String objectId, boolean escalated) {

        boolean settled() {
            return status.equals("succeeded") || status.equals("failed_final") || (status.equals("unknown") && escalated);
        }
    }

    /**
     * A create the target received.
     *
     * @param reachedWork whether the target's own work saw it (a reset before commit or an armed status did not)
     * @param repeatable  whether the target looks the key up before it creates, so a re-send is safe by design
     */
    public record Create(String fault, boolean reachedWork, boolean repeatable) {
    }

    /** A fault armed for the key: {@code times} uses, {@code fired} of them taken by the target. */
    public record Armed(String fault, int times, int fired) {
    }

    /** A window in which something was away on purpose. */
    public record Outage(Away what, Instant from, Instant to) {

        boolean covers(Instant at) {
            return !at.isBefore(from) && !at.isAfter(to);
        }
    }

    public enum Away {
        /** The journal's database: an agent may be told 503 with {@code Retry-After}. */
        JOURNAL,
        /** A gateway process, killed or stopped: an agent's call may end with no answer. */
        GATEWAY
    }
}

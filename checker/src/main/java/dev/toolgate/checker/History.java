package dev.toolgate.checker;

import java.time.Instant;
import java.util.List;

/**
 * What one fault run left behind, gathered from outside the gateway: every answer each agent got, the journal read
 * directly, what the targets received and hold, and the faults armed.
 *
 * @param outages    when the journal or a gateway was away on purpose: the only times an agent may be told 503 or get no answer
 * @param others     answers to calls that are not one operation's (a process's, whose steps are operations of their own):
 *                   judged by what an agent may be told at all
 */
public record History(List<Operation> operations, List<Outage> outages, List<Answer> others) {

    public History {
        operations = List.copyOf(operations);
        outages = List.copyOf(outages);
        others = List.copyOf(others);
    }

    public History(List<Operation> operations, List<Outage> outages) {
        this(operations, outages, List.of());
    }

    /**
     * One key's story.
     *
     * @param system      the target it was sent to ({@code 1c}, {@code bitrix24}, {@code yookassa})
     * @param answers     every answer an agent got for it, retries while judging included
     * @param row         its journal row, or null when the journal holds none
     * @param mayEscalate whether its fault plan can leave it for a person (an ambiguous look-up, a target away past
     *                    the reconcile budget); an escalation elsewhere is a defect
     * @param sent        whether the run was to send it at all: false for a process's step the process never reached,
     *                    which must then have no row and no request at its target, and whose armed faults need not fire
     */
    public record Operation(String key, String system, List<Answer> answers, Row row, List<String> objects,
                            List<Create> creates, List<Armed> armed, boolean mayEscalate, boolean sent) {

        public Operation {
            answers = List.copyOf(answers);
            objects = List.copyOf(objects);
            creates = List.copyOf(creates);
            armed = List.copyOf(armed);
        }

        public Operation(String key, String system, List<Answer> answers, Row row, List<String> objects,
                         List<Create> creates, List<Armed> armed, boolean mayEscalate) {
            this(key, system, answers, row, objects, creates, armed, mayEscalate, true);
        }
    }

    /**
     * One answer an agent got.
     *
     * @param httpStatus  the HTTP status, or {@link #NO_ANSWER} when the call ended without one
     * @param opStatus    the operation's status in the answer's body ({@code succeeded}, …), or null
     * @param problem     the problem type's last segment, or null
     * @param excerpt     the start of the body of an answer that is not a success, for a report; null otherwise
     */
    public record Answer(int httpStatus, String opStatus, String objectId, String problem, boolean retryAfter, Instant at,
                         String excerpt) {

        public static final int NO_ANSWER = -1;

        public Answer(int httpStatus, String opStatus, String objectId, String problem, boolean retryAfter, Instant at) {
            this(httpStatus, opStatus, objectId, problem, retryAfter, at, null);
        }

        /** The agent was told its operation succeeded: an acknowledgement the journal and the target must honour. */
        boolean acknowledged() {
            return (httpStatus == 200 || httpStatus == 201) && "succeeded".equals(opStatus);
        }
    }

    /** The journal's row as read by SQL. */
    public record Row(String status, String objectId, boolean escalated, String errorCode) {

        public Row(String status, String objectId, boolean escalated) {
            this(status, objectId, escalated, null);
        }

        /**
         * Finished, escalated to a person, or waiting on a named party: a person's approval, or the caller who alone
         * holds the fields the journal withheld. Anything else is work the gateway left undone.
         */
        boolean settled() {
            return status.equals("succeeded") || status.equals("failed_final") || (status.equals("unknown") && escalated)
                    || status.equals("pending_approval") || (status.equals("failed_retryable") && "awaiting_caller".equals(errorCode));
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

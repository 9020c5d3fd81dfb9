package dev.toolgate.targets;

import jakarta.json.JsonObject;

import java.util.List;

public sealed interface Lookup {

    /** The label of {@code toolgate_reconciled_total{outcome}}: declared, so renaming a record renames no metric. */
    String metricName();

    /** The earlier attempt's effect, or unknown when the target cannot say or holds a duplicate; null: nothing carries our key, send. */
    static Outcome beforeResend(Lookup lookup) {
        if (lookup instanceof Found found) {
            return new Outcome.Succeeded(found.objectId(), found.result(), null);
        }
        if (lookup instanceof Pending) {
            return new Outcome.Pending(null, null, null);
        }
        if (lookup instanceof Failed failed) { // a failed object of ours: a new attempt at it needs a new intent
            return new Outcome.Rejected(failed.errorCode(), failed.detail(), null);
        }
        if (lookup instanceof Absent) {
            return null;
        }
        return new Outcome.Unknown(lookup instanceof Ambiguous ? "duplicate_suspected" : "lookup_unavailable", null);
    }

    record Found(String objectId, JsonObject result) implements Lookup {
        @Override
        public String metricName() {
            return "found";
        }
    }

    /** The target knows the operation but has not finished it: wait, never resend. */
    record Pending(String detail) implements Lookup {
        @Override
        public String metricName() {
            return "pending";
        }
    }

    /** The object failed for good (a canceled payment): no effect, and resending would not change that. */
    record Failed(String objectId, String errorCode, String detail) implements Lookup {
        @Override
        public String metricName() {
            return "failed";
        }
    }

    record Absent() implements Lookup {
        @Override
        public String metricName() {
            return "absent";
        }
    }

    record Unavailable(String errorCode) implements Lookup {
        @Override
        public String metricName() {
            return "unavailable";
        }
    }

    /** More than one object carries our key: a duplicate already happened and a person must look. */
    record Ambiguous(List<String> objectIds) implements Lookup {
        private static final String CARRY = " objects carry this key: [";

        @Override
        public String metricName() {
            return "ambiguous";
        }

        /** How the journal's events say it: "2 objects carry this key: [a, b]" ({@link #objectIdsIn} reads it back). */
        public String describe() {
            return objectIds.size() + CARRY + String.join(", ", objectIds) + "]";
        }

        public static List<String> objectIdsIn(String detail) {
            int at = detail == null ? -1 : detail.indexOf(CARRY);
            int end = at < 0 ? -1 : detail.indexOf(']', at);
            if (end < 0) {
                return List.of();
            }
            return java.util.Arrays.stream(detail.substring(at + CARRY.length(), end).split(", "))
                    .filter(id -> !id.isBlank()).toList();
        }
    }
}

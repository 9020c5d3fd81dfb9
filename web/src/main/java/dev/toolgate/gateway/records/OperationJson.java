package dev.toolgate.gateway.records;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.approval.ApprovalView;
import dev.toolgate.gateway.NextAction;
import dev.toolgate.operation.EventView;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

/** One operation, the same in every answer (docs/http-api.md); built only from the stored row, so a replay is byte-identical. */
public final class OperationJson {

    private static final long SECONDS_A_DAY = 86_400;
    /** 0000-01-01 and 9999-12-31: four-digit years, the only ones {@link Instant#toString} writes without a sign. */
    private static final long FIRST_DAY = LocalDate.of(0, 1, 1).toEpochDay();
    private static final long LAST_DAY = LocalDate.of(9999, 12, 31).toEpochDay();

    private OperationJson() {
    }

    public static JsonObject of(OperationView op, String self, Duration retention) {
        return base(op, self, retention).build();
    }

    /** The full record an agent taking over another's work reads: recorded parameters, approval, story and what to do next. */
    public static JsonObject withHistory(OperationView op, List<EventView> events, ApprovalView approval, String self, Duration retention) {
        JsonArrayBuilder story = JSON.createArrayBuilder();
        events.forEach(e -> story.add(event(e)));
        JsonObjectBuilder json = base(op, self, retention)
                .add("agent_id", op.agentId())
                .add("request_hash", op.requestHash())
                .add("payload", op.payload())
                .add("withheld_fields", JSON.createArrayBuilder(op.withheldFields()))
                .add("approval_required", op.approvalRequired());
        if (approval != null) {
            json.add("approval", approval(approval));
        }
        events.stream().filter(e -> e.errorClass() != null).reduce((a, b) -> b)
                .ifPresent(e -> json.add("last_error_class", e.errorClass()));
        NextAction next = NextAction.of(op, approval, Instant.now());
        JsonObjectBuilder action = JSON.createObjectBuilder().add("action", next.action()).add("detail", next.detail());
        optional(action, "who", next.who());
        time(action, "after", next.after());
        return json.add("next_action", action).add("events", story).build();
    }

    public static JsonObject approval(ApprovalView a) {
        JsonObjectBuilder json = JSON.createObjectBuilder()
                .add("approval_id", a.id())
                .add("operation_key", a.operationKey())
                .add("request_hash", a.requestHash())
                .add("state", a.standing().dbName())
                .add("granted_by", a.grantedBy());
        time(json, "granted_at", a.grantedAt());
        time(json, "expires_at", a.expiresAt());
        optional(json, "note", a.note());
        optional(json, "revoked_by", a.revokedBy());
        time(json, "revoked_at", a.revokedAt());
        optional(json, "revoke_reason", a.revokeReason());
        return json.build();
    }

    private static JsonObjectBuilder base(OperationView op, String self, Duration retention) {
        JsonObjectBuilder json = JSON.createObjectBuilder()
                .add("operation_key", op.key())
                .add("operation", op.operation())
                .add("target", op.target())
                .add("status", op.status().dbName());
        optional(json, "target_object_id", op.targetObjectId());
        if (op.result() != null) {
            json.add(op.status() == OperationStatus.SUCCEEDED ? "result" : "error", op.result());
        }
        optional(json, "error_code", op.errorCode());
        json.add("attempt_count", op.attemptCount());
        optional(json, "trace_id", op.traceId());
        time(json, "created_at", op.createdAt());
        time(json, "updated_at", op.updatedAt());
        time(json, "completed_at", op.completedAt());
        if (op.status().isTerminal()) {
            // until then a retry with this key replays; after it, the key is forgotten (retention)
            time(json, "expires_at", op.completedAt().plus(retention));
        } else {
            time(json, "lease_until", op.leaseUntil());
            time(json, "next_check_at", op.nextCheckAt());
            time(json, "escalated_at", op.escalatedAt());
            json.add("reconcile_count", op.reconcileCount());
        }
        return json.add("links", JSON.createObjectBuilder().add("self", self));
    }

    private static JsonObject event(EventView e) {
        JsonObjectBuilder json = JSON.createObjectBuilder().add("id", e.id()).add("kind", e.kind());
        time(json, "at", e.occurredAt());
        if (e.attempt() != null) {
            json.add("attempt", e.attempt());
        }
        optional(json, "status", e.status());
        if (e.httpStatus() != null) {
            json.add("http_status", e.httpStatus());
        }
        optional(json, "error_class", e.errorClass());
        if (e.durationMs() != null) {
            json.add("duration_ms", e.durationMs());
        }
        optional(json, "actor", e.actor());
        optional(json, "detail", e.detail());
        optional(json, "trace_id", e.traceId());
        return json.build();
    }

    private static void optional(JsonObjectBuilder json, String name, String value) {
        if (value != null) {
            json.add(name, value);
        }
    }

    private static void time(JsonObjectBuilder json, String name, Instant value) {
        if (value != null) {
            json.add(name, instant(value));
        }
    }

    /**
     * An instant as {@link Instant#toString} writes it ({@code 2026-12-06T07:02:06.123456Z}), without the general
     * formatter, costly for every answer's three or four instants (docs/benchmark.md, "Where the gateway's CPU goes").
     */
    static String instant(Instant at) {
        long day = Math.floorDiv(at.getEpochSecond(), SECONDS_A_DAY);
        if (day < FIRST_DAY || day > LAST_DAY) {
            return at.toString();
        }
        int second = (int) Math.floorMod(at.getEpochSecond(), SECONDS_A_DAY);
        LocalDate date = LocalDate.ofEpochDay(day);
        char[] text = "0000-00-00T00:00:00.000000000Z".toCharArray();
        digits(text, 4, date.getYear());
        digits(text, 7, date.getMonthValue());
        digits(text, 10, date.getDayOfMonth());
        digits(text, 13, second / 3600);
        digits(text, 16, second / 60 % 60);
        digits(text, 19, second % 60);
        int nanos = at.getNano();
        if (nanos == 0) {
            text[19] = 'Z';
            return new String(text, 0, 20);
        }
        digits(text, 29, nanos);
        int end = nanos % 1_000_000 == 0 ? 23 : nanos % 1_000 == 0 ? 26 : 29; // in groups of three, as Instant writes it
        text[end] = 'Z';
        return new String(text, 0, end + 1);
    }

    /** {@code value}'s decimal digits written leftwards from just before {@code end}, over the zeros already there. */
    private static void digits(char[] text, int end, int value) {
        for (int i = end - 1; value > 0; i--, value /= 10) {
            text[i] = (char) ('0' + value % 10);
        }
    }
}

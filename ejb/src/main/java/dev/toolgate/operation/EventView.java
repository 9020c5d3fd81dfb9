package dev.toolgate.operation;

import java.time.Instant;

/** One event of an operation's story, as the API shows it. */
public record EventView(long id, Instant occurredAt, String kind, Integer attempt, String status, Integer httpStatus,
                        String errorClass, Integer durationMs, String actor, String detail, String traceId) {
}

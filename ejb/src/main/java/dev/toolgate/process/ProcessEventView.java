package dev.toolgate.process;

import java.time.Instant;

/** One entry of a process's story: submitted, resumed, or a change of status and why. */
public record ProcessEventView(Instant occurredAt, String kind, ProcessStatus status, String actor, String detail) {
}

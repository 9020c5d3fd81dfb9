package dev.toolgate.canonical;

import jakarta.json.JsonObject;

/** The agent's request body as sent: {@code {"operation": …, "target": …, "payload": {…}}}. */
public record AgentCommand(String operation, String target, JsonObject payload) {
}

package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import java.time.Duration;

/**
 * What 2026-07-28 adds to every result: the required {@code resultType} ({@code complete} unless the result said
 * otherwise) and, in {@code _meta}, who answered ({@code io.modelcontextprotocol/serverInfo}). Errors pass unchanged.
 */
final class ModernResults {

    static final String META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";
    /** Discovery changes only with a redeployment; an hour of caching costs a client at most an hour of a stale list. */
    static final Duration DISCOVER_TTL = Duration.ofHours(1);
    /** A principal's tools change when its roles do; a minute bounds how long a cached list can lag behind. */
    static final Duration LIST_TTL = Duration.ofMinutes(1);

    private ModernResults() {
    }

    static JsonObject stamp(JsonObject reply) {
        if (!(reply.get("result") instanceof JsonObject result)) {
            return reply;
        }
        JsonObjectBuilder stamped = JSON.createObjectBuilder(result);
        if (!result.containsKey("resultType")) {
            stamped.add("resultType", "complete");
        }
        JsonObject meta = result.get("_meta") instanceof JsonObject m ? m : JsonObject.EMPTY_JSON_OBJECT;
        stamped.add("_meta", JSON.createObjectBuilder(meta).add(META_SERVER_INFO, McpMethods.SERVER_INFO));
        return JSON.createObjectBuilder(reply).add("result", stamped).build();
    }
}

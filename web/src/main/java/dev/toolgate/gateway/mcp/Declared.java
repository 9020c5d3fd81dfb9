package dev.toolgate.gateway.mcp;

import jakarta.json.JsonObject;

/**
 * What the client declared it handles on this request (2026-07-28 carries its capabilities on every request):
 * tasks ({@code extensions["io.modelcontextprotocol/tasks"]}) and URL-mode elicitation
 * ({@code elicitation.url}). A legacy request declares neither.
 */
record Declared(boolean tasks, boolean urlElicitation) {

    static final String TASKS = "io.modelcontextprotocol/tasks";
    static final Declared NOTHING = new Declared(false, false);

    static Declared of(ProtocolVersions.Era era) {
        if (!(era instanceof ProtocolVersions.Modern modern)) {
            return NOTHING;
        }
        JsonObject capabilities = modern.capabilities();
        boolean tasks = capabilities.get("extensions") instanceof JsonObject extensions && extensions.get(TASKS) instanceof JsonObject;
        boolean url = capabilities.get("elicitation") instanceof JsonObject elicitation && elicitation.get("url") instanceof JsonObject;
        return new Declared(tasks, url);
    }
}

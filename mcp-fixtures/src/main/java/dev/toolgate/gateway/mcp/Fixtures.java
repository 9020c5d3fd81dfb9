package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * What the conformance suite's fixture tools share: their definitions (with the tasks extension's
 * {@code execution.taskSupport}) and a plain text result. In the package of the MCP door so that the task-creating
 * fixtures run on its own tasks code ({@link Tasks}, {@link ToolResults}); the test WAR's classes and the door's share
 * one class loader.
 */
final class Fixtures {

    static final String FORBIDDEN = "forbidden";
    static final String OPTIONAL = "optional";
    static final String REQUIRED = "required";

    private Fixtures() {
    }

    /** A tool taking {@code properties} (a JSON Schema {@code properties} object), none of them required. */
    static JsonObject definition(String name, String description, JsonObjectBuilder properties, String taskSupport) {
        return JSON.createObjectBuilder().add("name", name).add("description", description)
                .add("inputSchema", JSON.createObjectBuilder().add("type", "object").add("properties", properties))
                .add("execution", JSON.createObjectBuilder().add("taskSupport", taskSupport)).build();
    }

    static JsonObject text(String text) {
        return JSON.createObjectBuilder()
                .add("content", JSON.createArrayBuilder().add(JSON.createObjectBuilder().add("type", "text").add("text", text)))
                .add("isError", false).build();
    }

    /** The capabilities a modern request declared; a legacy one declares none. */
    static JsonObject capabilities(ProtocolVersions.Era era) {
        return era instanceof ProtocolVersions.Modern modern ? modern.capabilities() : JsonObject.EMPTY_JSON_OBJECT;
    }

    static JsonObject arguments(JsonRpc.Call call) {
        return call.params().get("arguments") instanceof JsonObject args ? args : JsonObject.EMPTY_JSON_OBJECT;
    }
}

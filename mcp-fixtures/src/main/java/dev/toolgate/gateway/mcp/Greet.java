package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.access.Caller;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonObject;

/** {@code greet}: the suite's synchronous tool, never a task — "Hello, {name}!". */
@ApplicationScoped
class Greet implements MountedTool {

    @Override
    public JsonObject definition() {
        return Fixtures.definition("greet", "Conformance fixture: greets by name, synchronously",
                JSON.createObjectBuilder().add("name", JSON.createObjectBuilder().add("type", "string")), Fixtures.FORBIDDEN);
    }

    @Override
    public JsonObject reply(Caller caller, JsonRpc.Call call, ProtocolVersions.Era era, String api) {
        return JsonRpc.result(call.id(), Fixtures.text("Hello, " + Fixtures.arguments(call).getString("name", "World") + "!"));
    }
}

package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.access.Caller;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * {@code test_missing_capability}: a tool that needs the client's {@code sampling}, refused with -32021 naming it when
 * the request did not declare it. The door turns -32021 into HTTP 400 for every method, as it does for {@code tasks/*}.
 */
@ApplicationScoped
class MissingCapabilityProbe implements MountedTool {

    @Override
    public JsonObject definition() {
        return Fixtures.definition("test_missing_capability", "Conformance fixture: needs the client's sampling capability",
                JSON.createObjectBuilder(), Fixtures.FORBIDDEN);
    }

    @Override
    public JsonObject reply(Caller caller, JsonRpc.Call call, ProtocolVersions.Era era, String api) {
        if (Fixtures.capabilities(era).get("sampling") instanceof JsonObject) {
            return JsonRpc.result(call.id(), Fixtures.text("sampling declared"));
        }
        return JsonRpc.error(call.id(), JsonRpc.MISSING_REQUIRED_CLIENT_CAPABILITY, "Missing required client capability",
                JSON.createObjectBuilder().add("requiredCapabilities", JSON.createObjectBuilder().add("sampling", JsonValue.EMPTY_JSON_OBJECT))
                        .build());
    }
}

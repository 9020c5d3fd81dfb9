package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.access.Caller;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonObject;

/**
 * {@code test_logging_tool}: a tool that would log at the level a request asks for. This endpoint answers every request
 * with one JSON body and opens no stream, so what the suite judges is that the answer carries the result and no
 * {@code notifications/message}.
 */
@ApplicationScoped
class LoggingProbe implements MountedTool {

    @Override
    public JsonObject definition() {
        return Fixtures.definition("test_logging_tool", "Conformance fixture: logs only when the request sets a log level",
                JSON.createObjectBuilder(), Fixtures.FORBIDDEN);
    }

    @Override
    public JsonObject reply(Caller caller, JsonRpc.Call call, ProtocolVersions.Era era, String api) {
        return JsonRpc.result(call.id(), Fixtures.text("done, nothing logged"));
    }
}

package dev.toolgate.gateway.mcp;

import dev.toolgate.access.Caller;
import jakarta.json.JsonObject;

/**
 * A tool mounted beside the product's own, found as a CDI bean. The product ships none; a test deployment adds the
 * conformance suite's fixture tools this way (docs/mcp.md#conformance). It answers the whole JSON-RPC reply, because a
 * fixture may have to refuse with a protocol error (-32021); the door stamps and sends it as any other.
 */
interface MountedTool {

    /** The tool as {@code tools/list} shows it; its {@code name} is how a call finds it. */
    JsonObject definition();

    /** The reply to {@code call}, a {@code tools/call} of this tool by {@code caller}; {@code api} as for the catalog's tools. */
    JsonObject reply(Caller caller, JsonRpc.Call call, ProtocolVersions.Era era, String api);

    default String name() {
        return definition().getString("name");
    }
}

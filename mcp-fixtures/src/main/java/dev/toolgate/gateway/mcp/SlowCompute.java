package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.access.Caller;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;

/**
 * {@code slow_compute}: the suite's task-supporting tool, "{@code seconds} of work, then a result" — here an invoice at
 * the 1C simulator, which the suite arms to take {@code seconds} (key {@code slow-compute-<n>s-…}; {@link JournaledWork}).
 */
@ApplicationScoped
class SlowCompute implements MountedTool {

    @Inject
    JournaledWork work;

    @Override
    public JsonObject definition() {
        return Fixtures.definition("slow_compute", "Conformance fixture: an invoice in 1C that takes `seconds` to make",
                JSON.createObjectBuilder().add("seconds", JSON.createObjectBuilder().add("type", "integer"))
                        .add("label", JSON.createObjectBuilder().add("type", "string")), Fixtures.OPTIONAL);
    }

    @Override
    public JsonObject reply(Caller caller, JsonRpc.Call call, ProtocolVersions.Era era, String api) {
        int seconds = Fixtures.arguments(call).get("seconds") instanceof JsonNumber n ? n.intValue() : 0;
        return work.invoice(caller, call, era, api, "slow-compute-" + seconds + "s");
    }
}

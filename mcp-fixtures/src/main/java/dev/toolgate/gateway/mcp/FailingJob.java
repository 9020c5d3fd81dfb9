package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.access.Caller;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * {@code failing_job}: the suite's task-required tool whose work ends in a tool error — an invoice the 1C simulator,
 * armed for keys holding {@code failing-job}, refuses, so the task completes with the product's {@code target-rejected}
 * result ({@code isError}). A client that did not declare tasks is refused with -32021 naming the extension: a
 * task-required tool has no other answer for it.
 */
@ApplicationScoped
class FailingJob implements MountedTool {

    @Inject
    JournaledWork work;

    @Override
    public JsonObject definition() {
        return Fixtures.definition("failing_job", "Conformance fixture: an invoice 1C refuses, as a task",
                JSON.createObjectBuilder(), Fixtures.REQUIRED);
    }

    @Override
    public JsonObject reply(Caller caller, JsonRpc.Call call, ProtocolVersions.Era era, String api) {
        if (!Declared.of(era).tasks()) {
            return JsonRpc.error(call.id(), JsonRpc.MISSING_REQUIRED_CLIENT_CAPABILITY, "Missing required client capability",
                    JSON.createObjectBuilder().add("requiredCapabilities", JSON.createObjectBuilder().add("extensions",
                            JSON.createObjectBuilder().add(Declared.TASKS, JsonValue.EMPTY_JSON_OBJECT))).build());
        }
        return work.invoice(caller, call, era, api, "failing-job");
    }
}

package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.access.Caller;
import dev.toolgate.canonical.AgentCommand;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;

/**
 * {@code confirm_delete}: the suite's task that parks for input. Toolgate's one kind of input is a person's approval, so
 * this is a YooKassa payment, which waits for one: the task is {@code input_required} with the console's approval page
 * as a URL-mode elicitation for a client that declared {@code elicitation.url}, and {@code working} with the page's
 * address in its message for any other — the product's rule (docs/mcp.md#tasks).
 */
@ApplicationScoped
class ConfirmDelete implements MountedTool {

    @Inject
    JournaledWork work;

    @Override
    public JsonObject definition() {
        return Fixtures.definition("confirm_delete", "Conformance fixture: a payment that waits for a person's approval",
                JSON.createObjectBuilder().add("filename", JSON.createObjectBuilder().add("type", "string")), Fixtures.OPTIONAL);
    }

    @Override
    public JsonObject reply(Caller caller, JsonRpc.Call call, ProtocolVersions.Era era, String api) {
        String what = Fixtures.arguments(call).getString("filename", "a file");
        return work.reply(caller, call, era, api, "confirm-delete", new AgentCommand("payment.create", "yookassa",
                JSON.createObjectBuilder().add("order_id", "confirm-delete").add("amount_minor", 100).add("currency", "RUB")
                        .add("description", "conformance: confirm deleting " + what).build()));
    }
}

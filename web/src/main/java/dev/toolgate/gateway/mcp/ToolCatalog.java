package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.access.Caller;
import dev.toolgate.access.Role;
import dev.toolgate.canonical.OperationCatalog;
import dev.toolgate.canonical.OperationSpec;
import dev.toolgate.process.ProcessType;
import jakarta.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The tools: one per operation of {@link OperationCatalog}, and the evidence tools a replacement agent works with.
 * Who sees and calls which is the REST API's rule, so a principal with only {@code operator} (or {@code auditor},
 * read-only) is limited to the evidence tools.
 */
final class ToolCatalog {

    static final String GET_OPERATION = "get_operation";
    static final String LIST_OPEN_OPERATIONS = "list_open_operations";
    static final String RESUME_OPERATION = "resume_operation";
    static final String GET_PROCESS = "get_process";
    static final String RESUME_PROCESS = "resume_process";
    /** A process type's tool: {@code order.fulfil} → {@code process_order_fulfil}. */
    static final String PROCESS_PREFIX = "process_";

    private static final Set<Role> READERS = Set.of(Role.AGENT, Role.APPROVER, Role.OPERATOR, Role.AUDITOR);

    /** What each operation does, in an agent's words; a missing entry falls back to the operation's name. */
    private static final Map<String, String> PURPOSES = Map.of(
            "invoice.create", "Creates an invoice document in 1C",
            "invoice.post", "Posts (проводит) an existing 1C invoice, given its Ref_Key as invoice_id",
            "invoice.cancel", "Cancels an existing 1C invoice: sets its status to Отменен (never deletes it)",
            "crm.deal.create", "Creates a deal in Bitrix24 CRM",
            "crm.deal.lose", "Moves an existing Bitrix24 deal to the lost stage (never deletes it)",
            "payment.create", "Creates a payment in YooKassa (charges money)",
            "payment.refund", "Refunds a YooKassa payment (moves money)");
    /** Money, documents and changes to existing records: undone by hand if not meant (MCP's destructiveHint). */
    private static final Set<String> DESTRUCTIVE = Set.of("invoice.create", "invoice.post", "invoice.cancel", "crm.deal.lose",
            "payment.create", "payment.refund");

    static final List<Tool> ALL = build();

    private ToolCatalog() {
    }

    static List<Tool> visibleTo(Caller caller) {
        return ALL.stream().filter(t -> t.callableBy(caller)).toList();
    }

    static Optional<Tool> find(String name) {
        return ALL.stream().filter(t -> t.name().equals(name)).findFirst();
    }

    /** {@code invoice.create} → {@code invoice_create}: tool names many clients accept ({@code [A-Za-z0-9_-]}). */
    static String toolName(String operation) {
        return operation.replace('.', '_');
    }

    private static List<Tool> build() {
        List<Tool> tools = new ArrayList<>();
        for (OperationSpec spec : OperationCatalog.operations()) {
            tools.add(new Tool(toolName(spec.operation()), definition(toolName(spec.operation()), operationDescription(spec),
                    ToolSchemas.input(spec), false, DESTRUCTIVE.contains(spec.operation())), Set.of(Role.AGENT), spec));
        }
        tools.add(new Tool(GET_OPERATION, definition(GET_OPERATION, "Reads the record of one operation of your tenant by its"
                + " idempotency_key: status, result, the recorded (approved) payload, approval, events, trace id and the next"
                + " action. Changes nothing.", ToolSchemas.keyOnly(), true, false), READERS, null));
        tools.add(new Tool(LIST_OPEN_OPERATIONS, definition(LIST_OPEN_OPERATIONS, "Lists your tenant's unfinished operations,"
                + " oldest first: outcome unknown (being clarified), started, awaiting approval, awaiting a retry by their caller."
                + " Changes nothing.", ToolSchemas.noArguments(), true, false), READERS, null));
        tools.add(new Tool(RESUME_OPERATION, definition(RESUME_OPERATION, "Continues a recorded operation by its idempotency_key"
                + " with the journal's own payload and approval: takes over another agent's work without re-planning it."
                + " Looks an uncertain outcome up before anything is sent; never a second effect.",
                ToolSchemas.keyOnly(), false, true), Set.of(Role.AGENT, Role.OPERATOR), null));
        tools.add(new Tool(GET_PROCESS, definition(GET_PROCESS, "Reads one process of your tenant by its idempotency_key: its"
                + " status and why, what it waits on (a step's look-up, a person's approval, a back-off), each step with its"
                + " operation record and its compensation, and its story. Changes nothing.", ToolSchemas.keyOnly(), true, false),
                READERS, null));
        tools.add(new Tool(RESUME_PROCESS, definition(RESUME_PROCESS, "Continues a recorded process by its idempotency_key with"
                + " its recorded input and steps: takes over another agent's process without re-planning it. A step whose outcome"
                + " is uncertain is looked up before anything more is sent; no step runs twice.", ToolSchemas.keyOnly(), false, true),
                Set.of(Role.AGENT, Role.OPERATOR), null));
        return List.copyOf(tools);
    }

    /** One tool per declared process type: its input as flat arguments plus the key, as an operation's tool. */
    static List<Tool> processes(List<ProcessType> types) {
        List<Tool> tools = new ArrayList<>();
        for (ProcessType type : types) {
            String name = PROCESS_PREFIX + toolName(type.name());
            StringBuilder steps = new StringBuilder();
            type.steps().forEach(s -> steps.append(steps.length() == 0 ? "" : " → ").append(s.operation()));
            String description = "Starts process " + type.name() + (type.description().isBlank() ? "" : ": " + type.description())
                    + " Steps: " + steps + ", each its own operation under the key <idempotency_key>/<step>. One process per"
                    + " idempotency_key: send the same key with the same arguments to follow it up (or use get_process /"
                    + " resume_process); a new key is a new process. It goes on by itself when you stop.";
            tools.add(new Tool(name, definition(name, description, ToolSchemas.input(type.input()), false, true), Set.of(Role.AGENT),
                    type.input(), type));
        }
        return List.copyOf(tools);
    }

    private static String operationDescription(OperationSpec spec) {
        String key = "<contour>:" + spec.operation() + ":<intent-id>:<version>";
        return PURPOSES.getOrDefault(spec.operation(), "Runs " + spec.operation()) + " (operation " + spec.operation()
                + ", target " + spec.target() + "). Exactly one effect per idempotency_key: make the key once per business intent as "
                + key + " (e.g. prod:" + spec.operation() + ":order-48291:v1) and send the same key with the same arguments on every"
                + " retry, also after a timeout or an 'outcome is being clarified' answer. A new key is a new effect; the same key"
                + " with other arguments is refused."
                + (spec.approvalRequired() ? " A person must approve it first: the first call answers approval_required." : "");
    }

    private static JsonObject definition(String name, String description, JsonObject input, boolean readOnly, boolean destructive) {
        return JSON.createObjectBuilder()
                .add("name", name)
                .add("description", description)
                .add("inputSchema", input)
                .add("outputSchema", ToolSchemas.output())
                .add("annotations", JSON.createObjectBuilder()
                        .add("readOnlyHint", readOnly)
                        .add("destructiveHint", destructive)
                        .add("idempotentHint", true)
                        .add("openWorldHint", !readOnly))
                .build();
    }
}

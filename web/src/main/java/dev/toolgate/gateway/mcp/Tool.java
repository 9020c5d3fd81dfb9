package dev.toolgate.gateway.mcp;

import dev.toolgate.access.Caller;
import dev.toolgate.access.Role;
import dev.toolgate.canonical.OperationSpec;
import dev.toolgate.process.ProcessType;
import jakarta.json.JsonObject;

import java.util.Set;

/**
 * One tool: the roles that may call it (the REST method's {@code @Allowed}), and the catalog operation it submits
 * (null for an evidence tool) or, for a process's tool, the process's input as its fields and the type it starts.
 */
record Tool(String name, JsonObject definition, Set<Role> allowed, OperationSpec operation, ProcessType process) {

    /** An operation tool or an evidence tool (no process). */
    Tool(String name, JsonObject definition, Set<Role> allowed, OperationSpec operation) {
        this(name, definition, allowed, operation, null);
    }

    boolean callableBy(Caller caller) {
        return allowed.stream().anyMatch(caller::has);
    }
}

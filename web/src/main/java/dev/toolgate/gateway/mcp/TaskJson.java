package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

/**
 * The shapes of the tasks extension (SEP-2663): a {@code Task}, a {@code CreateTaskResult} ({@code resultType: task})
 * and the URL-mode elicitation that points a person at the console's approval page for exactly this operation.
 */
final class TaskJson {

    private TaskJson() {
    }

    /**
     * A task as it stands. {@code ttlMs}: from creation to when retention may remove the record — null while it is
     * unfinished, because the journal keeps unfinished operations for as long as they take.
     */
    static JsonObjectBuilder task(String taskId, TaskStatuses.State state, Instant createdAt, Instant updatedAt, Instant completedAt,
                                  Duration retention) {
        JsonObjectBuilder task = JSON.createObjectBuilder().add("taskId", taskId).add("status", state.status())
                .add("statusMessage", state.message()).add("createdAt", createdAt.toString()).add("lastUpdatedAt", updatedAt.toString());
        if (completedAt == null) {
            task.addNull("ttlMs");
        } else {
            task.add("ttlMs", Duration.between(createdAt, completedAt.plus(retention)).toMillis());
        }
        if (state.poll() != null) {
            task.add("pollIntervalMs", state.poll().toMillis());
        }
        return task;
    }

    static JsonObject created(JsonObjectBuilder task) {
        return task.add("resultType", "task").build();
    }

    /** The input a person gives: the approval page of this operation, named by a key unique to its fingerprint. */
    static JsonObject approvalRequest(String consoleBase, String operationKey, String fingerprint) {
        String url = approvalPage(consoleBase, operationKey);
        return JSON.createObjectBuilder().add(approvalInputKey(fingerprint), JSON.createObjectBuilder()
                .add("method", "elicitation/create")
                .add("params", JSON.createObjectBuilder().add("mode", "url").add("url", url)
                        .add("message", "A person with the approver role must approve this exact request (" + operationKey
                                + ") in Toolgate's console; the agent cannot. Accept once it is approved to send it"))).build();
    }

    /** The console's page for deciding this operation: it shows the fingerprint a grant is bound to. */
    static String approvalPage(String base, String operationKey) {
        return base + "/console/approval?key=" + URLEncoder.encode(operationKey, StandardCharsets.UTF_8);
    }

    static String approvalInputKey(String fingerprint) {
        return "approval-" + fingerprint.substring(0, Math.min(16, fingerprint.length()));
    }
}

package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.gateway.edge.ProblemType;
import dev.toolgate.gateway.records.OperationJson;
import dev.toolgate.gateway.records.ProcessJson;
import dev.toolgate.search.OperationRecords;
import dev.toolgate.approval.ApprovalStanding;
import dev.toolgate.gateway.GatewayAnswer;
import dev.toolgate.process.ProcessAnswer;
import dev.toolgate.process.ProcessRecord;
import dev.toolgate.process.ProcessStatus;
import dev.toolgate.process.ProcessView;
import dev.toolgate.operation.OperationView;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * The one place where the gateway's answers become MCP tool results, as {@code Answers} is for REST: the same
 * {@link GatewayAnswer} and problem types, as a {@code CallToolResult} with {@code structuredContent}, a text for the
 * model, and {@code isError} where the call failed for good or was refused.
 */
final class ToolResults {

    static final List<String> OUTCOMES = List.of("succeeded", "failed", "clarifying", "in_progress", "try_later",
            "approval_required", "refused", "record", "open_operations", "process");

    private final String api;
    /** {@link #api} without its scheme and authority: the base of the operations' self paths. */
    private final String apiPath;
    private final Duration retention;

    /** {@code api}: the REST API's absolute base, for links; {@code retention}: published as {@code expires_at}. */
    ToolResults(String api, Duration retention) {
        this.api = api;
        int authority = api.indexOf("://");
        int path = authority < 0 ? 0 : api.indexOf('/', authority + 3);
        this.apiPath = path < 0 ? "" : api.substring(path);
        this.retention = retention;
    }

    JsonObject of(GatewayAnswer answer) {
        OperationView op = answer.operation();
        if (answer instanceof GatewayAnswer.Done done) {
            return done(done);
        }
        if (answer instanceof GatewayAnswer.OutcomeUnknown unknown) {
            long after = seconds(unknown.retryAfter());
            return result(false, content("clarifying", op).add("retry_after_seconds", after).add("detail", unknown.escalated()
                    ? "escalated: reconciliation could not settle it and a person will. Read it with get_operation, or call again"
                    + " with the same idempotency_key after " + after + " s; do not make a new key"
                    : "the outcome is being clarified with the target" + (unknown.awaitingNotice()
                    ? ", looked up as soon as the target announces it" : "") + " — call again with the same idempotency_key after " + after
                    + " s; do not make a new key (the target may already have done it)"));
        }
        if (answer instanceof GatewayAnswer.InProgress busy) {
            long after = seconds(busy.retryAfter());
            return result(false, content("in_progress", op).add("retry_after_seconds", after).add("detail",
                    "another call with this key is being executed — call again with the same idempotency_key after " + after + " s"));
        }
        if (answer instanceof GatewayAnswer.TryLater later) {
            long after = seconds(later.retryAfter());
            return result(false, content("try_later", op).add("retry_after_seconds", after).add("detail",
                    "the target is unavailable and nothing was executed — call again with the same idempotency_key after " + after + " s"));
        }
        if (answer instanceof GatewayAnswer.KeyReused) {
            return problem(ProblemType.IDEMPOTENCY_KEY_REUSED, "this idempotency_key names another request (other arguments);"
                    + " nothing was executed. A new intent needs a new key", op.key());
        }
        if (answer instanceof GatewayAnswer.FingerprintUncheckable) {
            return problem(ProblemType.FINGERPRINT_SCHEME_UNKNOWN, "an instance of the newer release that captured this"
                    + " idempotency_key compares the arguments; nothing was executed — call again with the same idempotency_key", op.key());
        }
        if (answer instanceof GatewayAnswer.AwaitingApproval) {
            return result(false, content("approval_required", op).add("approval", approval(op)).add("detail",
                    "a person with the approver role must approve it at " + link(op) + " (the agent cannot);"
                    + " then call again with the same idempotency_key and the same arguments"));
        }
        throw new IllegalArgumentException("an answer this mapping does not know: " + answer);
    }

    /** A refusal before or instead of execution: the REST problem type, as an error result the model can read. */
    JsonObject problem(ProblemType type, String detail, String operationKey) {
        return problem(type, detail, operationKey, null);
    }

    /** The same, naming the argument at fault in {@code field}, as REST's problem names the payload field. */
    JsonObject problem(ProblemType type, String detail, String operationKey, String field) {
        JsonObjectBuilder problem = JSON.createObjectBuilder().add("type", type.uri()).add("title", type.title());
        if (detail != null) {
            problem.add("detail", detail);
        }
        if (field != null) {
            problem.add("field", field);
        }
        JsonObjectBuilder content = JSON.createObjectBuilder().add("outcome", "refused").add("problem", problem);
        if (operationKey != null) {
            content.add("operation_key", operationKey);
        }
        return result(true, content.add("detail", type.title() + (detail == null ? "" : ": " + detail)));
    }

    JsonObject record(OperationRecords.OperationRecord record) {
        OperationView op = record.operation();
        return result(false, JSON.createObjectBuilder().add("outcome", "record").add("operation_key", op.key())
                .add("detail", "operation " + op.key() + " is " + op.status().dbName())
                .add("operation", OperationJson.withHistory(op, record.events(), record.approval(), selfPath(op), retention)));
    }

    /** A process as it stands: the same answer for starting, following up, resuming and reading one. */
    JsonObject of(ProcessAnswer answer) {
        if (answer instanceof ProcessAnswer.KeyReused reused) {
            return problem(ProblemType.IDEMPOTENCY_KEY_REUSED, "this idempotency_key names another process (other arguments);"
                    + " nothing was executed. A new intent needs a new key", null);
        }
        if (answer instanceof ProcessAnswer.FingerprintUncheckable newer) {
            return problem(ProblemType.FINGERPRINT_SCHEME_UNKNOWN, "an instance of the newer release that captured process "
                    + newer.process().key() + " compares the arguments; nothing was executed — call again with the same idempotency_key", null);
        }
        ProcessRecord record = answer instanceof ProcessAnswer.Progressed p ? p.record() : ((ProcessAnswer.Busy) answer).record();
        Duration retryAfter = answer instanceof ProcessAnswer.Progressed p ? p.retryAfter() : ((ProcessAnswer.Busy) answer).retryAfter();
        boolean replayed = answer instanceof ProcessAnswer.Progressed p && p.replayed();
        ProcessView process = record.process();
        JsonObjectBuilder content = JSON.createObjectBuilder().add("outcome", "process").add("process_key", process.key())
                .add("replayed", replayed).add("process", processJson(record));
        String detail = "process " + process.key() + " is " + process.status().dbName() + ": " + process.detail();
        if (retryAfter != null) {
            long after = seconds(retryAfter);
            content.add("retry_after_seconds", after);
            detail += ". It goes on by itself; to follow it, call get_process (or this tool again with the same idempotency_key"
                    + " and arguments) after " + after + " s. Do not make a new key";
        }
        boolean failed = process.status() == ProcessStatus.FAILED || process.status() == ProcessStatus.COMPENSATED
                || (process.status() == ProcessStatus.NEEDS_ATTENTION && retryAfter == null);
        return result(failed, content.add("detail", detail));
    }

    JsonObject process(ProcessRecord record) {
        ProcessView process = record.process();
        return result(false, JSON.createObjectBuilder().add("outcome", "record").add("process_key", process.key())
                .add("detail", "process " + process.key() + " is " + process.status().dbName() + ": " + process.detail())
                .add("process", processJson(record)));
    }

    private JsonObject processJson(ProcessRecord record) {
        return ProcessJson.of(record, key -> (api + "/v1/operations?key=" + URLEncoder.encode(key, StandardCharsets.UTF_8))
                        .replaceFirst("^[a-z]+://[^/]+", ""),
                (api + "/v1/processes?key=" + URLEncoder.encode(record.process().key(), StandardCharsets.UTF_8))
                        .replaceFirst("^[a-z]+://[^/]+", ""), retention);
    }

    JsonObject open(List<OperationView> operations) {
        JsonArrayBuilder items = JSON.createArrayBuilder();
        operations.forEach(op -> items.add(OperationJson.of(op, selfPath(op), retention)));
        return result(false, JSON.createObjectBuilder().add("outcome", "open_operations").add("operations", items)
                .add("detail", operations.size() + " unfinished operation(s), oldest first"));
    }

    private JsonObject done(GatewayAnswer.Done done) {
        OperationView op = done.operation();
        switch (done.ending()) {
            case SUCCEEDED -> {
                JsonObjectBuilder content = content("succeeded", op).add("replayed", done.replayed());
                if (op.targetObjectId() != null) {
                    content.add("target_object_id", op.targetObjectId());
                }
                if (op.result() != null) {
                    content.add("result", op.result());
                }
                return result(false, content.add("detail", done.replayed()
                        ? "succeeded earlier; this is the stored result, nothing was executed again"
                        : "succeeded: " + op.target() + " object " + op.targetObjectId()));
            }
            case APPROVAL_LAPSED -> {
                return failed(done, ProblemType.APPROVAL_LAPSED, "the approval was "
                        + ApprovalStanding.lapseWord(op.errorCode())
                        + " before an attempt could be sent; a new attempt at the intent needs a new key and a new approval");
            }
            case RETRIES_EXHAUSTED -> {
                return failed(done, ProblemType.RETRIES_EXHAUSTED, "final for this key; a new attempt at the intent needs a new key");
            }
            default -> {
                return failed(done, ProblemType.TARGET_REJECTED, "the target refused; sending it again would not help");
            }
        }
    }

    private JsonObject failed(GatewayAnswer.Done done, ProblemType type, String detail) {
        return result(true, content("failed", done.operation()).add("replayed", done.replayed())
                .add("problem", JSON.createObjectBuilder().add("type", type.uri()).add("title", type.title()).add("detail", detail))
                .add("detail", type.title() + ": " + detail));
    }

    private JsonObjectBuilder content(String outcome, OperationView op) {
        return JSON.createObjectBuilder().add("outcome", outcome).add("operation_key", op.key())
                .add("operation", OperationJson.of(op, selfPath(op), retention));
    }

    private JsonObject approval(OperationView op) {
        return JSON.createObjectBuilder().add("who", "approver")
                .add("link", link(op))
                .add("request_hash", op.requestHash())
                .add("grant", "POST " + api + "/v1/approvals {\"operation_key\",\"request_hash\"} by a principal with role approver")
                .build();
    }

    /** The text a model reads, then the same content as JSON for clients that ignore structuredContent. */
    private static JsonObject result(boolean isError, JsonObjectBuilder content) {
        JsonObject structured = content.build();
        return JSON.createObjectBuilder()
                .add("content", JSON.createArrayBuilder()
                        .add(JSON.createObjectBuilder().add("type", "text").add("text", structured.getString("detail")))
                        .add(JSON.createObjectBuilder().add("type", "text").add("text", structured.toString())))
                .add("structuredContent", structured)
                .add("isError", isError)
                .build();
    }

    /** By {@code ?key=}: it takes every legal key, also one holding {@code /} (docs/http-api.md). */
    String link(OperationView op) {
        return api + operationsQuery(op);
    }

    private String selfPath(OperationView op) {
        return apiPath + operationsQuery(op);
    }

    private static String operationsQuery(OperationView op) {
        return "/v1/operations?key=" + URLEncoder.encode(op.key(), StandardCharsets.UTF_8);
    }

    private static long seconds(Duration duration) {
        return Math.max(1, (duration.toMillis() + 999) / 1000); // round up: never invite a call before the moment
    }
}

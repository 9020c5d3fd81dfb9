package dev.toolgate.gateway.records;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.operation.OperationView;
import dev.toolgate.process.Compensation;
import dev.toolgate.process.ProcessEventView;
import dev.toolgate.process.ProcessRecord;
import dev.toolgate.process.ProcessType;
import dev.toolgate.process.ProcessView;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Function;

/** One process, the same in every answer at both front doors (docs/processes.md). */
public final class ProcessJson {

    private ProcessJson() {
    }

    public static JsonObject of(ProcessRecord record, Function<String, String> operationPath, String processPath, Duration retention) {
        ProcessView p = record.process();
        JsonObjectBuilder json = summary(p, processPath);
        json.add("agent_id", p.agentId()).add("request_hash", p.requestHash()).add("payload", p.payload());
        JsonArrayBuilder steps = JSON.createArrayBuilder();
        for (ProcessRecord.StepRecord step : record.steps()) {
            JsonObjectBuilder s = JSON.createObjectBuilder()
                    .add("name", step.step().name())
                    .add("operation", step.step().operation())
                    .add("target", step.step().target())
                    .add("operation_key", step.key())
                    .add("status", status(step.operation(), p, retention));
            if (step.operation() != null) {
                s.add("record", OperationJson.of(step.operation(), operationPath.apply(step.key()), retention));
            }
            s.add("compensation", compensation(step, record, operationPath, retention));
            steps.add(s);
        }
        JsonArrayBuilder events = JSON.createArrayBuilder();
        for (ProcessEventView e : record.events()) {
            JsonObjectBuilder event = JSON.createObjectBuilder().add("at", e.occurredAt().toString()).add("kind", e.kind())
                    .add("status", e.status().dbName()).add("actor", e.actor());
            if (e.detail() != null) {
                event.add("detail", e.detail());
            }
            events.add(event);
        }
        return json.add("steps", steps).add("events", events).build();
    }

    public static JsonObjectBuilder summary(ProcessView p, String processPath) {
        JsonObjectBuilder json = JSON.createObjectBuilder()
                .add("process_key", p.key())
                .add("process", p.type())
                .add("status", p.status().dbName())
                .add("detail", p.detail());
        if (p.waitingOn() != null) {
            json.add("waiting_on", p.waitingOn());
        }
        time(json, "next_check_at", p.nextCheckAt());
        if (p.traceId() != null) {
            json.add("trace_id", p.traceId());
        }
        time(json, "created_at", p.createdAt());
        time(json, "updated_at", p.updatedAt());
        time(json, "completed_at", p.completedAt());
        return json.add("href", processPath);
    }

    /** Without a record a step never started, unless the process finished longer ago than retention: then it cannot tell. */
    private static String status(OperationView operation, ProcessView process, Duration retention) {
        if (operation != null) {
            return operation.status().dbName();
        }
        return process.finished() && Instant.now().isAfter(process.createdAt().plus(retention)) ? "purged_or_not_started" : "not_started";
    }

    private static JsonObject compensation(ProcessRecord.StepRecord step, ProcessRecord record, Function<String, String> operationPath,
                                           Duration retention) {
        Compensation declared = step.step().compensation();
        JsonObjectBuilder json = JSON.createObjectBuilder();
        if (declared instanceof Compensation.Undo undo) {
            json.add("declared", "operation").add("operation", undo.operation()).add("operation_key", step.compensationKey());
            OperationView run = step.compensation();
            json.add("status", status(run, record.process(), retention));
            if (run != null) {
                json.add("record", OperationJson.of(run, operationPath.apply(step.compensationKey()), retention));
            }
        } else if (declared instanceof Compensation.NothingToUndo none) {
            json.add("declared", "none").add("reason", none.reason());
        } else if (declared instanceof Compensation.Irreversible impossible) {
            json.add("declared", "impossible").add("reason", impossible.reason());
        }
        return json.build();
    }

    /** A declared process type, for agents that discover what they may start. */
    public static JsonObject type(ProcessType type) {
        JsonObjectBuilder input = JSON.createObjectBuilder();
        type.input().fields().forEach(f -> input.add(f.name(), JSON.createObjectBuilder()
                .add("type", f.type().name().toLowerCase(java.util.Locale.ROOT)).add("required", f.required())
                .add("max_length", f.maxLength())));
        JsonArrayBuilder steps = JSON.createArrayBuilder();
        type.steps().forEach(s -> {
            JsonObjectBuilder step = JSON.createObjectBuilder().add("name", s.name()).add("operation", s.operation()).add("target", s.target());
            if (s.compensation() instanceof Compensation.Undo undo) {
                step.add("compensation", undo.operation());
            } else if (s.compensation() instanceof Compensation.NothingToUndo none) {
                step.add("compensation", "none").add("compensation_reason", none.reason());
            } else if (s.compensation() instanceof Compensation.Irreversible impossible) {
                step.add("compensation", "impossible").add("compensation_reason", impossible.reason());
            }
            steps.add(step);
        });
        return JSON.createObjectBuilder().add("process", type.name()).add("description", type.description())
                .add("input", input).add("steps", steps).build();
    }

    private static void time(JsonObjectBuilder json, String name, Instant value) {
        if (value != null) {
            json.add(name, value.toString());
        }
    }
}

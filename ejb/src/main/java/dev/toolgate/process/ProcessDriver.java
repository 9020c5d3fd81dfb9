package dev.toolgate.process;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.access.Caller;
import dev.toolgate.canonical.CanonicalJson;
import dev.toolgate.canonical.Canonicalizer;
import dev.toolgate.canonical.Fingerprint;
import dev.toolgate.canonical.FingerprintSchemes;
import dev.toolgate.canonical.InvalidCommand;
import dev.toolgate.gateway.ToolCall;
import dev.toolgate.lifecycle.DueOperations;
import dev.toolgate.operation.OperationRefused;
import dev.toolgate.targets.registry.TargetRegistry;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import dev.toolgate.trace.StructuredLog;
import dev.toolgate.trace.Trace;
import dev.toolgate.trace.TraceParent;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Where processes are driven from: submit, resume, an operator's settlement, the reconcile job, a read. Each hands
 * the process to {@link ProcessAdvancer}, so whichever caller arrives first moves it and the others find it moved.
 * {@code NOT_SUPPORTED}: no transaction is open while a step's target is called.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class ProcessDriver {

    private static final Logger LOG = Logger.getLogger(ProcessDriver.class.getName());
    /** A process key plus "/" + a step name (32) + "/compensation" fits the 255 characters of an operation key. */
    public static final int MAX_KEY_LENGTH = 200;

    @Inject
    ProcessCatalog catalog;
    @Inject
    ProcessJournal processes;
    @Inject
    TargetRegistry targets;
    @Inject
    ProcessAdvancer advancer;
    @Inject
    ProcessRecords records;

    /** Refused before anything is stored when the type, input or any step's payload is invalid; else registered and advanced. */
    public ProcessAnswer submit(ToolCall call, Caller caller, String key, ProcessCommand command) {
        if (key.length() > MAX_KEY_LENGTH) {
            throw new InvalidCommand(InvalidCommand.Reason.INVALID_REQUEST, "a process key is at most " + MAX_KEY_LENGTH
                    + " characters: each step's key is the process key and the step's name");
        }
        Optional<ProcessView> existing = processes.find(caller.tenant(), key);
        if (existing.isPresent()) { // a retry: judged by what the process recorded, whatever the catalog says today
            return again(call, caller, existing.get(), command);
        }
        ProcessType type = catalog.require(command.process());
        JsonObject input = Canonicalizer.canonicalPayload(type.input(), command.payload());
        StepPayloads.checkAll(type, input);
        for (StepDeclaration step : type.steps()) {
            targets.requireConfigured(step.target());
            if (step.compensation() instanceof Compensation.Undo undo) {
                targets.requireConfigured(undo.target());
            }
        }
        String fingerprint = fingerprint(type, input);
        Trace.operation(key);
        OperationAttributes attributes = new OperationAttributes(caller.tenant(), key, type.name(), null);
        Spans.annotateServer(attributes); // the call is about the process: its server span says so, as an operation's does
        try (Step span = Spans.step("toolgate.process", attributes)) {
            Instant now = Instant.now();
            ProcessJournal.Captured captured = processes.capture(caller.tenant(), key, type, caller.principalId(), input,
                    fingerprint, now, now.plus(advancer.claim()));
            ProcessView process = captured.process();
            FingerprintSchemes.Match match = captured.created() ? FingerprintSchemes.Match.SAME
                    : FingerprintSchemes.match(process.requestHash(), fingerprint);
            if (match != FingerprintSchemes.Match.SAME) {
                return refused(span, process, match);
            }
            ProcessAnswer answer = advancer.advance(process, caller.principalId(), call, captured.created(), !captured.created() && process.finished(),
                    null);
            span.outcome(outcome(answer));
            return answer;
        }
    }

    /**
     * Its input read by the declaration the process recorded, so an honest retry still replays after the catalog's
     * declaration changed.
     */
    private ProcessAnswer again(ToolCall call, Caller caller, ProcessView process, ProcessCommand command) {
        Trace.operation(process.key());
        OperationAttributes attributes = new OperationAttributes(caller.tenant(), process.key(), process.type(), null);
        Spans.annotateServer(attributes);
        try (Step span = Spans.step("toolgate.process", attributes)) {
            FingerprintSchemes.Match match;
            try {
                if (FingerprintSchemes.schemeOf(process.requestHash()) != FingerprintSchemes.CURRENT) {
                    // a newer release's process: its declaration and input rules may be ones this release cannot even
                    // read, and only that release can tell a retry from another intent
                    return refused(span, process, FingerprintSchemes.Match.UNCHECKABLE);
                }
                ProcessType recorded = catalog.recorded(process.declaration());
                match = !recorded.name().equals(command.process()) ? FingerprintSchemes.Match.DIFFERENT
                        : FingerprintSchemes.match(process.requestHash(),
                                fingerprint(recorded, Canonicalizer.canonicalPayload(recorded.input(), command.payload())));
            } catch (InvalidCommand | InvalidDeclaration e) { // not valid as the recorded input: not the recorded intent
                match = FingerprintSchemes.Match.DIFFERENT;
            }
            if (match != FingerprintSchemes.Match.SAME) {
                return refused(span, process, match);
            }
            ProcessAnswer answer = advancer.advance(process, caller.principalId(), call, false, process.finished(), null);
            span.outcome(outcome(answer));
            return answer;
        }
    }

    private static ProcessAnswer refused(Step span, ProcessView process, FingerprintSchemes.Match match) {
        if (match == FingerprintSchemes.Match.UNCHECKABLE) {
            span.outcome("fingerprint_uncheckable");
            return new ProcessAnswer.FingerprintUncheckable(process);
        }
        span.outcome("key_reused");
        return new ProcessAnswer.KeyReused(process);
    }

    /** The input nested, so that no input field (one named "process", say) can stand in for the type. */
    private static String fingerprint(ProcessType type, JsonObject input) {
        return Fingerprint.of(CanonicalJson.write(JSON.createObjectBuilder().add("process", type.name()).add("input", input).build()));
    }

    /** Continues the recorded process with the key alone: nothing the caller says changes what the process sends. */
    public ProcessAnswer resume(ToolCall call, Caller caller, String key) {
        ProcessView process = processes.find(caller.tenant(), key)
                .orElseThrow(() -> new OperationRefused(OperationRefused.Reason.PROCESS_NOT_FOUND, "no process with this key"));
        Trace.operation(key);
        OperationAttributes attributes = new OperationAttributes(caller.tenant(), key, process.type(), null);
        Spans.annotateServer(attributes);
        try (Step span = Spans.step("toolgate.process", attributes)) {
            ProcessAnswer answer = advancer.advance(process, caller.principalId(), call, false, process.finished(), "resumed by " + caller.principalId());
            span.outcome(outcome(answer));
            return answer;
        }
    }

    /**
     * An operator settles a process that needs attention, with evidence, under the operator's name. A process whose
     * step is escalated is settled by resolving that operation first.
     */
    public ProcessRecord resolve(Caller operator, String key, ProcessStatus outcome, String evidence) {
        ProcessView process = processes.find(operator.tenant(), key)
                .orElseThrow(() -> new OperationRefused(OperationRefused.Reason.PROCESS_NOT_FOUND, "no process with this key"));
        if (process.status() != ProcessStatus.NEEDS_ATTENTION || process.nextCheckAt() != null) {
            throw new OperationRefused(OperationRefused.Reason.PROCESS_NOT_NEEDING_ATTENTION, "the process is " + process.status().dbName()
                    + (process.nextCheckAt() != null ? " and waits on " + process.waitingOn() + ": settle that first" : ""));
        }
        OptionalLong claim = processes.claim(process.tenant(), key, Instant.now(), advancer.claim());
        if (claim.isEmpty()) {
            throw new OperationRefused(OperationRefused.Reason.PROCESS_IN_PROGRESS, "another advancer holds the process now");
        }
        // under the claim nothing else writes the row: what it says now is what the person settles
        process = processes.find(operator.tenant(), key).orElseThrow();
        if (process.status() != ProcessStatus.NEEDS_ATTENTION || process.nextCheckAt() != null) {
            processes.release(process, claim.getAsLong());
            throw new OperationRefused(OperationRefused.Reason.PROCESS_NOT_NEEDING_ATTENTION, "the process is "
                    + process.status().dbName() + " now");
        }
        String detail = "resolved by " + operator.principalId() + " as " + outcome.dbName() + ": " + evidence + " (before: "
                + process.detail() + ")";
        processes.record(process, claim.getAsLong(), outcome, null, detail, null, operator.principalId(), Instant.now(), null);
        ProcessView settled = processes.find(process.tenant(), key).orElseThrow();
        return records.of(settled);
    }

    public Optional<ProcessRecord> find(String tenant, String key) {
        return processes.find(tenant, key).map(records::of);
    }

    /**
     * Advances up to {@code limit} due processes whose claim is free, each as its own agent would; how many it looked
     * at, per tenant. Each runs in the process's own trace, continuing the registering call's span: the job's thread has
     * no call of its own.
     */
    public Map<String, Integer> advanceDue(int limit) {
        Map<String, Integer> advanced = new TreeMap<>(); // per tenant: each tenant's people see their own counts
        for (ProcessView process : processes.due(Instant.now(), limit)) {
            String traceId = process.traceId() != null ? process.traceId() : TraceParent.newTraceId(); // none recorded: one of its own
            OperationAttributes attributes = new OperationAttributes(process.tenant(), process.key(), process.type(), null);
            try (Trace trace = Trace.open(traceId, process.key())) {
                try (Step span = Spans.continuing("toolgate.process", traceId, process.spanId(), attributes)) {
                    ProcessAnswer answer = advancer.advance(process, DueOperations.ACTOR, new ToolCall("advance_process", null), false, false, null);
                    span.outcome(outcome(answer));
                    if (answer instanceof ProcessAnswer.Progressed) {
                        advanced.merge(process.tenant(), 1, Integer::sum);
                    }
                } catch (RuntimeException e) { // one process's trouble (the journal away) must not stop the others
                    StructuredLog.log(LOG, Level.WARNING, "advancing a process failed", Map.of("error", e.getClass().getName()));
                }
            }
        }
        return advanced;
    }

    private static String outcome(ProcessAnswer answer) {
        if (answer instanceof ProcessAnswer.Progressed progressed) {
            return progressed.record().process().status().dbName();
        }
        return answer instanceof ProcessAnswer.Busy ? "busy" : "key_reused";
    }
}

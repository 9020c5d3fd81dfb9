package dev.toolgate.process;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.access.Caller;
import dev.toolgate.access.Principals;
import dev.toolgate.access.Role;
import dev.toolgate.approval.ApprovalView;
import dev.toolgate.canonical.AgentCommand;
import dev.toolgate.canonical.CanonicalJson;
import dev.toolgate.canonical.Canonicalizer;
import dev.toolgate.canonical.Fingerprint;
import dev.toolgate.canonical.FingerprintSchemes;
import dev.toolgate.canonical.InvalidCommand;
import dev.toolgate.gateway.CommandGateway;
import dev.toolgate.gateway.GatewayAnswer;
import dev.toolgate.gateway.ToolCall;
import dev.toolgate.lifecycle.DueOperations;
import dev.toolgate.journal.Journal;
import dev.toolgate.journal.OperationRefused;
import dev.toolgate.journal.OperationStatus;
import dev.toolgate.journal.OperationView;
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
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Moves processes forward: registers one (key, type, input), then, under the process's claim, asks
 * {@link ProcessProgress} what the recorded step states call for and does it — sends the next step (or
 * compensation) through {@link CommandGateway}, exactly as an agent's own call — until the process waits on
 * something (a person, a look-up, a back-off) or is settled. No transaction is open here; each journal
 * phase commits on its own. An agent's call, a replacement agent's resume and the reconcile job all come
 * through here, so whichever arrives first moves the process and the others find it moved.
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
    Journal journal;
    @Inject
    CommandGateway gateway;
    @Inject
    TargetRegistry targets;
    @Inject
    Principals principals;

    /** How soon a waiting process is looked at again by the reconcile job. */
    @Inject
    @ConfigProperty(name = "toolgate.process.poll-seconds", defaultValue = "30")
    int pollSeconds;

    /** How long one advancer holds a process; past it, another may take over (the steps' keys keep that safe). */
    @Inject
    @ConfigProperty(name = "toolgate.process.claim-seconds", defaultValue = "120")
    int claimSeconds;

    /**
     * An agent's process under {@code key}: refused before anything is stored when its type is unknown, its
     * input invalid, or any step's payload would be invalid; otherwise registered (or found) and advanced.
     */
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
                    fingerprint, now, now.plusSeconds(claimSeconds));
            ProcessView process = captured.process();
            FingerprintSchemes.Match match = captured.created() ? FingerprintSchemes.Match.SAME
                    : FingerprintSchemes.match(process.requestHash(), fingerprint);
            if (match != FingerprintSchemes.Match.SAME) {
                return refused(span, process, match);
            }
            ProcessAnswer answer = advance(process, caller.principalId(), call, captured.created(), !captured.created() && process.finished(),
                    null);
            span.outcome(outcome(answer));
            return answer;
        }
    }

    /**
     * The same process sent again under its key: its input read by the declaration the process recorded, so an
     * honest retry replays or advances it even after the catalog's declaration changed; anything else the key
     * names is another intent.
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
            ProcessAnswer answer = advance(process, caller.principalId(), call, false, process.finished(), null);
            span.outcome(outcome(answer));
            return answer;
        }
    }

    /** Another intent under the key, or one this release cannot compare (a newer release's fingerprint scheme). */
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

    /**
     * A replacement agent (or an operator) continues the recorded process with the key alone: the recorded input,
     * the recorded steps; nothing it says can change what the process sends.
     */
    public ProcessAnswer resume(ToolCall call, Caller caller, String key) {
        ProcessView process = processes.find(caller.tenant(), key)
                .orElseThrow(() -> new OperationRefused(OperationRefused.Reason.PROCESS_NOT_FOUND, "no process with this key"));
        Trace.operation(key);
        OperationAttributes attributes = new OperationAttributes(caller.tenant(), key, process.type(), null);
        Spans.annotateServer(attributes);
        try (Step span = Spans.step("toolgate.process", attributes)) {
            ProcessAnswer answer = advance(process, caller.principalId(), call, false, process.finished(), "resumed by " + caller.principalId());
            span.outcome(outcome(answer));
            return answer;
        }
    }

    /**
     * An operator settles a process that needs attention once a person has done what it could not (undone an
     * effect by hand, finished a step): how it ended, with evidence, under the operator's name. Only a process
     * that waits for nobody else: one whose step is escalated is settled by resolving that operation first.
     */
    public ProcessRecord resolve(Caller operator, String key, ProcessStatus outcome, String evidence) {
        ProcessView process = processes.find(operator.tenant(), key)
                .orElseThrow(() -> new OperationRefused(OperationRefused.Reason.PROCESS_NOT_FOUND, "no process with this key"));
        if (process.status() != ProcessStatus.NEEDS_ATTENTION || process.nextCheckAt() != null) {
            throw new OperationRefused(OperationRefused.Reason.PROCESS_NOT_NEEDING_ATTENTION, "the process is " + process.status().dbName()
                    + (process.nextCheckAt() != null ? " and waits on " + process.waitingOn() + ": settle that first" : ""));
        }
        OptionalLong claim = processes.claim(process.tenant(), key, Instant.now(), Duration.ofSeconds(claimSeconds));
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
        return record(settled, recorded(settled));
    }

    /** The record as it stands, without moving it: what a person or agent reads. */
    public Optional<ProcessRecord> find(String tenant, String key) {
        return processes.find(tenant, key).map(process -> record(process, recorded(process)));
    }

    /**
     * What the reconcile job does for processes: advances up to {@code limit} whose next check is due and whose
     * claim is free, each as its own agent would (its steps keep the agent who submitted it). Returns how many it looked
     * at under their claim, per tenant (one that waits is looked at, and left waiting).
     *
     * <p>Each in the process's own trace, as the agent's call that registered it: the steps it sends are journaled
     * (rows, events), logged and sent to their targets ({@code traceparent}) in that trace, and with tracing on its
     * span continues the registering call's {@code toolgate.process} span. The job's thread has no call of its own.
     */
    public Map<String, Integer> advanceDue(int limit) {
        Map<String, Integer> advanced = new TreeMap<>(); // per tenant: each tenant's people see their own counts
        for (ProcessView process : processes.due(Instant.now(), limit)) {
            String traceId = process.traceId() != null ? process.traceId() : TraceParent.newTraceId(); // none recorded: one of its own
            OperationAttributes attributes = new OperationAttributes(process.tenant(), process.key(), process.type(), null);
            try (Trace trace = Trace.open(traceId, process.key())) {
                try (Step span = Spans.continuing("toolgate.process", traceId, process.spanId(), attributes)) {
                    ProcessAnswer answer = advance(process, DueOperations.ACTOR, new ToolCall("advance_process", null), false, false, null);
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

    /**
     * Advances under the process's claim. Every step is sent in the name of the agent that submitted the process,
     * whoever advances it (a replacement agent, an operator, the reconcile job): the steps are that agent's intent,
     * and who moved the process is the process's own story.
     */
    private ProcessAnswer advance(ProcessView process, String actor, ToolCall call, boolean created, boolean finished, String resumedBy) {
        if (process.finished()) {
            // finished for good: its steps' records may be purged by now, so deciding again could only resend them
            return new ProcessAnswer.Progressed(record(process, recorded(process)), created, finished, null);
        }
        ProcessType type;
        try {
            type = catalog.recorded(process.declaration());
        } catch (InvalidDeclaration e) { // an operation it names left this instance's catalog: nothing can be sent from here
            return parked(process, actor, "its recorded declaration does not run on this gateway: " + e.getMessage());
        }
        Caller stepCaller = new Caller(process.agentId(), process.tenant(), Set.of(Role.AGENT));
        Duration poll = Duration.ofSeconds(pollSeconds);
        OptionalLong claim = processes.claim(process.tenant(), process.key(), Instant.now(), Duration.ofSeconds(claimSeconds));
        if (claim.isEmpty()) {
            ProcessView now = processes.find(process.tenant(), process.key()).orElse(process);
            return new ProcessAnswer.Busy(record(now, type), Duration.ofSeconds(Math.max(1, pollSeconds / 6)));
        }
        long epoch = claim.getAsLong();
        ProcessView current = processes.find(process.tenant(), process.key()).orElseThrow();
        if (current.finished()) { // another advancer finished it between the read and the claim
            processes.release(current, epoch);
            return new ProcessAnswer.Progressed(record(current, type), created, finished, null);
        }
        if (resumedBy != null) {
            processes.note(current, "resumed", actor, resumedBy, Instant.now());
        }
        List<String> keys = stageKeys(type, process.key());
        int rounds = 2 * keys.size() + 2;
        Instant recheck = null;
        boolean released = false;
        try {
            for (int round = 0; round < rounds && !released; round++) {
                Instant now = Instant.now();
                Map<String, OperationView> operations = journal.several(process.tenant(), keys);
                Map<String, ApprovalView> approvals = approvals(operations, now);
                ProcessProgress.Progress progress = ProcessProgress.decide(type, process.key(), key -> {
                    OperationView operation = operations.get(key);
                    return StepState.of(operation, operation == null || operation.approvalId() == null ? null
                            : approvals.get(operation.approvalId()), now);
                }, now, poll);
                if (progress.next() instanceof ProcessProgress.Submit submit) {
                    Stage stage = submit.stage();
                    // before sending, the claim renewed: should this advancer die now, the job looks again once it lapsed
                    current = write(current, epoch, progress.status(), stage.key(), progress.detail(),
                            now.plusSeconds(claimSeconds), actor, false);
                    Stuck stuck = send(stage, current, operations, stepCaller, call);
                    if (stuck != null) {
                        // a passing condition of this instance (a target not configured here) is looked at again
                        recheck = stuck.passing() ? Instant.now().plus(poll) : null;
                        current = write(current, epoch, ProcessStatus.NEEDS_ATTENTION, stage.key(), stuck.why(), recheck, actor, true);
                        released = true;
                    }
                    continue;
                }
                ProcessProgress.Wait wait = progress.next() instanceof ProcessProgress.Wait w ? w : null;
                recheck = wait == null ? null : wait.checkAt();
                current = write(current, epoch, progress.status(), wait == null ? null : wait.stage().key(), progress.detail(),
                        recheck, actor, true);
                released = true;
            }
            if (!released) { // the rounds ran out while steps kept moving: the next look finishes the job
                recheck = Instant.now().plus(poll);
                current = write(current, epoch, current.status(), current.waitingOn(), current.detail(), recheck, actor, true);
                released = true;
            }
        } catch (LostClaim lost) {
            ProcessView now = processes.find(process.tenant(), process.key()).orElse(current);
            return new ProcessAnswer.Busy(record(now, type), Duration.ofSeconds(1));
        }
        Duration retryAfter = recheck == null ? null : Duration.between(Instant.now(), recheck).isNegative()
                ? Duration.ofSeconds(1) : Duration.between(Instant.now(), recheck);
        return new ProcessAnswer.Progressed(record(current, type), created, finished, retryAfter);
    }

    /** The approvals the stages awaiting one name, as they stand at {@code now}: read only when a stage awaits one. */
    private Map<String, ApprovalView> approvals(Map<String, OperationView> operations, Instant now) {
        List<String> ids = operations.values().stream()
                .filter(op -> op.status() == OperationStatus.PENDING_APPROVAL && op.approvalId() != null)
                .map(OperationView::approvalId).toList();
        return ids.isEmpty() ? Map.of() : processes.approvals(ids, now);
    }

    /** Why a stage cannot be sent by the process itself; {@code passing}: a condition of this instance, looked at again. */
    private record Stuck(String why, boolean passing) {
    }

    /**
     * Sends one stage through the gateway. Null when the gateway took it (whatever its answer: the next round
     * reads what it recorded); otherwise why the process cannot go on by itself.
     */
    private Stuck send(Stage stage, ProcessView process, Map<String, OperationView> operations, Caller caller, ToolCall call) {
        if (!stage.compensation() && !operations.containsKey(stage.key()) && !principals.live(caller.principalId())) {
            // a new effect in the name of a revoked agent is work nobody may start any more; compensations still run
            return new Stuck(stage.describe() + " is not sent: " + caller.principalId() + ", whose process it is, was revoked;"
                    + " a person decides what becomes of it", false);
        }
        JsonObject payload;
        try {
            payload = StepPayloads.build(stage.template(), process.payload(), byStep(process.key(), operations));
        } catch (StepTemplate.MissingValue e) {
            return new Stuck(stage.describe() + " needs " + e.reference() + ", which the record of that step lacks (was it resolved"
                    + " by hand without it?): a person must finish the process", false);
        }
        try {
            GatewayAnswer answer = gateway.submit(new ToolCall(stage.operation(), call.callId()), caller, stage.key(),
                    new AgentCommand(stage.operation(), stage.target(), payload));
            if (answer instanceof GatewayAnswer.KeyReused) {
                return new Stuck("the key " + stage.key() + " names another request (sent outside this process); " + stage.describe()
                        + " cannot run under it: a person must decide", false);
            }
            return null;
        } catch (InvalidCommand e) {
            return new Stuck(stage.describe() + " cannot be sent: " + e.getMessage(), e.reason() == InvalidCommand.Reason.UNKNOWN_TARGET);
        }
    }

    /**
     * Writes where the process stands under the claim {@code epoch}: {@code release} ends the claim, otherwise it is
     * renewed for another {@code claim-seconds}, so a live advancer sending one slow step after another keeps it.
     */
    private ProcessView write(ProcessView before, long epoch, ProcessStatus status, String waitingOn, String detail, Instant nextCheck,
                              String actor, boolean release) {
        Instant now = Instant.now();
        if (!processes.record(before, epoch, status, waitingOn, detail, nextCheck, actor, now, release ? null : now.plusSeconds(claimSeconds))) {
            throw new LostClaim();
        }
        boolean finishedNow = status.finished();
        return new ProcessView(before.tenant(), before.key(), before.type(), status, before.agentId(), before.requestHash(),
                before.payload(), waitingOn, detail, nextCheck, epoch, before.createdAt(), now,
                finishedNow ? (before.completedAt() == null ? now : before.completedAt()) : null, before.traceId(), before.spanId(),
                before.declaration());
    }

    private ProcessRecord record(ProcessView process, ProcessType type) {
        if (type == null) {
            return new ProcessRecord(process, List.of(), processes.events(process.tenant(), process.key()));
        }
        Map<String, OperationView> operations = journal.several(process.tenant(), stageKeys(type, process.key()));
        List<ProcessRecord.StepRecord> steps = new ArrayList<>();
        for (StepDeclaration step : type.steps()) {
            String key = ProcessType.stepKey(process.key(), step.name());
            String compensation = step.compensation() instanceof Compensation.Undo ? ProcessType.compensationKey(process.key(), step.name()) : null;
            steps.add(new ProcessRecord.StepRecord(step, key, operations.get(key), compensation,
                    compensation == null ? null : operations.get(compensation)));
        }
        return new ProcessRecord(process, steps, processes.events(process.tenant(), process.key()));
    }

    private static List<String> stageKeys(ProcessType type, String processKey) {
        Set<String> keys = new LinkedHashSet<>();
        for (StepDeclaration step : type.steps()) {
            keys.add(ProcessType.stepKey(processKey, step.name()));
            if (step.compensation() instanceof Compensation.Undo) {
                keys.add(ProcessType.compensationKey(processKey, step.name()));
            }
        }
        return List.copyOf(keys);
    }

    /** The forward steps' operations by step name: what a template's {@code steps.<name>} refers to. */
    private static Map<String, OperationView> byStep(String processKey, Map<String, OperationView> operations) {
        Map<String, OperationView> steps = new HashMap<>();
        String prefix = processKey + "/";
        operations.forEach((key, operation) -> {
            String rest = key.substring(prefix.length());
            if (!rest.contains("/")) {
                steps.put(rest, operation);
            }
        });
        return steps;
    }

    /**
     * A process this instance cannot advance (its recorded declaration names an operation this instance's catalog
     * does not have — an older instance in a rolling deploy, say): needs attention, and looked at again, so an
     * instance that can run it goes on. Never over a finished process, which is re-read under the claim.
     */
    private ProcessAnswer parked(ProcessView process, String actor, String why) {
        OptionalLong claim = processes.claim(process.tenant(), process.key(), Instant.now(), Duration.ofSeconds(claimSeconds));
        if (claim.isPresent()) {
            ProcessView current = processes.find(process.tenant(), process.key()).orElse(process);
            if (current.finished()) {
                processes.release(current, claim.getAsLong());
            } else {
                processes.record(current, claim.getAsLong(), ProcessStatus.NEEDS_ATTENTION, current.waitingOn(), why,
                        Instant.now().plusSeconds(pollSeconds), actor, Instant.now(), null);
            }
        }
        ProcessView now = processes.find(process.tenant(), process.key()).orElse(process);
        return new ProcessAnswer.Progressed(record(now, null), false, now.finished(),
                now.nextCheckAt() == null ? null : Duration.ofSeconds(pollSeconds));
    }

    private ProcessType recorded(ProcessView process) {
        try {
            return catalog.recorded(process.declaration());
        } catch (InvalidDeclaration e) {
            return null;
        }
    }

    private static String outcome(ProcessAnswer answer) {
        if (answer instanceof ProcessAnswer.Progressed progressed) {
            return progressed.record().process().status().dbName();
        }
        return answer instanceof ProcessAnswer.Busy ? "busy" : "key_reused";
    }

    /** The claim went to another advancer while this one worked: it stops, and writes nothing more. */
    private static final class LostClaim extends RuntimeException {
        LostClaim() {
            super(null, null, false, false);
        }
    }
}

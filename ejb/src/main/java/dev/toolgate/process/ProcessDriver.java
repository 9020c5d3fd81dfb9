package dev.toolgate.process;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.access.Caller;
import dev.toolgate.access.Role;
import dev.toolgate.canonical.AgentCommand;
import dev.toolgate.canonical.CanonicalJson;
import dev.toolgate.canonical.Canonicalizer;
import dev.toolgate.canonical.Fingerprint;
import dev.toolgate.canonical.InvalidCommand;
import dev.toolgate.gateway.CommandGateway;
import dev.toolgate.gateway.GatewayAnswer;
import dev.toolgate.gateway.ToolCall;
import dev.toolgate.journal.DueOperations;
import dev.toolgate.journal.Journal;
import dev.toolgate.journal.OperationRefused;
import dev.toolgate.journal.OperationView;
import dev.toolgate.targets.TargetRegistry;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import dev.toolgate.trace.Trace;
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
import java.util.OptionalLong;
import java.util.Set;
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
        ProcessType type = catalog.require(command.process());
        JsonObject input = Canonicalizer.canonicalPayload(type.input(), command.payload());
        StepPayloads.checkAll(type, input);
        for (StepDeclaration step : type.steps()) {
            targets.requireConfigured(step.target());
            if (step.compensation() instanceof Compensation.Undo undo) {
                targets.requireConfigured(undo.target());
            }
        }
        // the input nested, so that no input field (one named "process", say) can stand in for the type
        String fingerprint = Fingerprint.of(CanonicalJson.write(JSON.createObjectBuilder().add("process", type.name())
                .add("input", input).build()));
        Trace.operation(key);
        try (Step span = Spans.step("toolgate.process", new OperationAttributes(caller.tenant(), key, type.name(), null))) {
            Instant now = Instant.now();
            ProcessJournal.Captured captured = processes.capture(caller.tenant(), key, type, caller.principalId(), input,
                    fingerprint, now, now.plusSeconds(claimSeconds));
            ProcessView process = captured.process();
            if (!captured.created() && !process.requestHash().equals(fingerprint)) {
                span.outcome("key_reused");
                return new ProcessAnswer.KeyReused(process);
            }
            ProcessAnswer answer = advance(process, caller.principalId(), call, captured.created(), !captured.created() && process.finished());
            span.outcome(outcome(answer));
            return answer;
        }
    }

    /**
     * A replacement agent (or an operator) continues the recorded process with the key alone: the recorded input,
     * the recorded steps; nothing it says can change what the process sends.
     */
    public ProcessAnswer resume(ToolCall call, Caller caller, String key) {
        ProcessView process = processes.find(caller.tenant(), key)
                .orElseThrow(() -> new OperationRefused(OperationRefused.Reason.PROCESS_NOT_FOUND, "no process with this key"));
        Trace.operation(key);
        try (Step span = Spans.step("toolgate.process", new OperationAttributes(caller.tenant(), key, process.type(), null))) {
            processes.note(process, "resumed", caller.principalId(), "resumed by " + caller.principalId(), Instant.now());
            ProcessAnswer answer = advance(process, caller.principalId(), call, false, process.finished());
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
        String detail = "resolved by " + operator.principalId() + " as " + outcome.dbName() + ": " + evidence + " (before: "
                + process.detail() + ")";
        processes.record(process, claim.getAsLong(), outcome, null, detail, null, operator.principalId(), Instant.now(), true);
        ProcessView settled = processes.find(process.tenant(), key).orElseThrow();
        return record(settled, recorded(settled));
    }

    /** The record as it stands, without moving it: what a person or agent reads. */
    public java.util.Optional<ProcessRecord> find(String tenant, String key) {
        return processes.find(tenant, key).map(process -> record(process, recorded(process)));
    }

    /**
     * What the reconcile job does for processes: advances up to {@code limit} whose next check is due and whose
     * claim is free, each as its own agent would (its steps keep the agent who submitted it). Returns how many it looked
     * at under their claim (one that waits is looked at, and left waiting).
     */
    public int advanceDue(int limit) {
        int advanced = 0;
        for (ProcessView process : processes.due(Instant.now(), limit)) {
            Trace.operation(process.key());
            try (Step span = Spans.root("toolgate.process", new OperationAttributes(process.tenant(), process.key(), process.type(), null))) {
                ProcessAnswer answer = advance(process, DueOperations.ACTOR, new ToolCall("advance_process", null), false, false);
                span.outcome(outcome(answer));
                advanced += answer instanceof ProcessAnswer.Progressed ? 1 : 0;
            } catch (RuntimeException e) { // one process's trouble (the journal away) must not stop the others
                LOG.log(Level.WARNING, "advancing process " + process.key() + " failed: " + e.getClass().getName());
            }
        }
        return advanced;
    }

    /**
     * Advances under the process's claim. Every step is sent in the name of the agent that submitted the process,
     * whoever advances it (a replacement agent, an operator, the reconcile job): the steps are that agent's intent,
     * and who moved the process is the process's own story.
     */
    private ProcessAnswer advance(ProcessView process, String actor, ToolCall call, boolean created, boolean finished) {
        ProcessType type;
        try {
            type = catalog.recorded(process.declaration());
        } catch (InvalidDeclaration e) { // an operation it names left the catalog: nothing more can be sent
            return stuck(process, actor, "its recorded declaration no longer runs on this gateway: " + e.getMessage());
        }
        Caller stepCaller = new Caller(process.agentId(), process.tenant(), Set.of(Role.AGENT));
        if (process.finished()) {
            // finished for good: its steps' records may be purged by now, so deciding again could only resend them
            return new ProcessAnswer.Progressed(record(process, type), created, finished, null);
        }
        Duration poll = Duration.ofSeconds(pollSeconds);
        OptionalLong claim = processes.claim(process.tenant(), process.key(), Instant.now(), Duration.ofSeconds(claimSeconds));
        if (claim.isEmpty()) {
            ProcessView now = processes.find(process.tenant(), process.key()).orElse(process);
            return new ProcessAnswer.Busy(record(now, type), Duration.ofSeconds(Math.max(1, pollSeconds / 6)));
        }
        long epoch = claim.getAsLong();
        ProcessView current = processes.find(process.tenant(), process.key()).orElseThrow();
        if (current.finished()) { // another advancer finished it between the read and the claim
            processes.record(current, epoch, current.status(), null, current.detail(), null, actor, Instant.now(), true);
            return new ProcessAnswer.Progressed(record(current, type), created, finished, null);
        }
        List<String> keys = stageKeys(type, process.key());
        int rounds = 2 * keys.size() + 2;
        Instant recheck = null;
        boolean released = false;
        try {
            for (int round = 0; round < rounds && !released; round++) {
                Instant now = Instant.now();
                Map<String, OperationView> operations = journal.several(process.tenant(), keys);
                ProcessProgress.Progress progress = ProcessProgress.decide(type, process.key(),
                        key -> StepState.of(operations.get(key)), now, poll);
                if (progress.next() instanceof ProcessProgress.Submit submit) {
                    Stage stage = submit.stage();
                    // before sending: should this advancer die now, the job looks again once the claim has lapsed
                    current = write(current, epoch, progress.status(), stage.key(), progress.detail(),
                            now.plusSeconds(claimSeconds), actor, false);
                    String stuck = send(stage, current, operations, stepCaller, call);
                    if (stuck != null) {
                        current = write(current, epoch, ProcessStatus.NEEDS_ATTENTION, stage.key(), stuck, null, actor, true);
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

    /**
     * Sends one stage through the gateway. Null when the gateway took it (whatever its answer: the next round
     * reads what it recorded); otherwise why the process cannot go on by itself.
     */
    private String send(Stage stage, ProcessView process, Map<String, OperationView> operations, Caller caller, ToolCall call) {
        JsonObject payload;
        try {
            payload = StepPayloads.build(stage.template(), process.payload(), byStep(process.key(), operations));
        } catch (StepTemplate.MissingValue e) {
            return stage.describe() + " needs " + e.reference() + ", which the record of that step lacks (was it resolved by hand"
                    + " without it?): a person must finish the process";
        }
        try {
            GatewayAnswer answer = gateway.submit(new ToolCall(stage.operation(), call.callId()), caller, stage.key(),
                    new AgentCommand(stage.operation(), stage.target(), payload));
            if (answer instanceof GatewayAnswer.KeyReused) {
                return "the key " + stage.key() + " names another request (sent outside this process); " + stage.describe()
                        + " cannot run under it: a person must decide";
            }
            return null;
        } catch (InvalidCommand e) {
            return stage.describe() + " cannot be sent: " + e.getMessage();
        }
    }

    private ProcessView write(ProcessView before, long epoch, ProcessStatus status, String waitingOn, String detail, Instant nextCheck,
                              String actor, boolean release) {
        Instant now = Instant.now();
        if (!processes.record(before, epoch, status, waitingOn, detail, nextCheck, actor, now, release)) {
            throw new LostClaim();
        }
        return new ProcessView(before.tenant(), before.key(), before.type(), status, before.agentId(), before.requestHash(),
                before.payload(), waitingOn, detail, nextCheck, epoch, before.createdAt(), now,
                nextCheck == null && status != ProcessStatus.RUNNING ? (before.completedAt() == null ? now : before.completedAt()) : null,
                before.traceId(), before.declaration());
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

    /** A process that cannot go on by itself, for a reason outside its steps: a person takes it from here. */
    private ProcessAnswer stuck(ProcessView process, String actor, String why) {
        OptionalLong claim = processes.claim(process.tenant(), process.key(), Instant.now(), Duration.ofSeconds(claimSeconds));
        if (claim.isPresent()) {
            processes.record(process, claim.getAsLong(), ProcessStatus.NEEDS_ATTENTION, process.waitingOn(), why, null, actor,
                    Instant.now(), true);
        }
        ProcessView now = processes.find(process.tenant(), process.key()).orElse(process);
        return new ProcessAnswer.Progressed(record(now, null), false, false, null);
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

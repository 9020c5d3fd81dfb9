package dev.toolgate.process;

import dev.toolgate.access.Caller;
import dev.toolgate.access.Role;
import dev.toolgate.approval.ApprovalView;
import dev.toolgate.gateway.ToolCall;
import dev.toolgate.journal.Journal;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Moves one process through its steps under its claim until it waits (a person, a look-up, a back-off) or is
 * settled. Every stage is sent in the name of the agent that submitted the process, whoever advances it: the steps
 * are that agent's intent. Runs in {@link ProcessDriver}'s {@code NOT_SUPPORTED} context, so no transaction is open
 * while a stage is sent.
 */
@ApplicationScoped
public class ProcessAdvancer {

    @Inject
    ProcessCatalog catalog;
    @Inject
    ProcessJournal processes;
    @Inject
    Journal journal;
    @Inject
    StageSender sender;
    @Inject
    ProcessRecords records;

    @Inject
    @ConfigProperty(name = "toolgate.process.poll-seconds", defaultValue = "30")
    int pollSeconds;

    /** How long one advancer holds a process; past it, another may take over (the steps' keys keep that safe). */
    @Inject
    @ConfigProperty(name = "toolgate.process.claim-seconds", defaultValue = "120")
    int claimSeconds;

    public Duration claim() {
        return Duration.ofSeconds(claimSeconds);
    }

    public ProcessAnswer advance(ProcessView process, String actor, ToolCall call, boolean created, boolean finished, String resumedBy) {
        if (process.finished()) {
            // finished for good: its steps' records may be purged by now, so deciding again could only resend them
            return new ProcessAnswer.Progressed(records.of(process), created, finished, null);
        }
        ProcessType type;
        try {
            type = catalog.recorded(process.declaration());
        } catch (InvalidDeclaration e) { // an operation it names left this instance's catalog: nothing can be sent from here
            return parked(process, actor, "its recorded declaration does not run on this gateway: " + e.getMessage());
        }
        OptionalLong claim = processes.claim(process.tenant(), process.key(), Instant.now(), Duration.ofSeconds(claimSeconds));
        if (claim.isEmpty()) {
            ProcessView now = processes.find(process.tenant(), process.key()).orElse(process);
            return new ProcessAnswer.Busy(records.of(now, type), Duration.ofSeconds(Math.max(1, pollSeconds / 6)));
        }
        long epoch = claim.getAsLong();
        ProcessView current = processes.find(process.tenant(), process.key()).orElseThrow();
        if (current.finished()) { // another advancer finished it between the read and the claim
            processes.release(current, epoch);
            return new ProcessAnswer.Progressed(records.of(current, type), created, finished, null);
        }
        if (resumedBy != null) {
            processes.note(current, "resumed", actor, resumedBy, Instant.now());
        }
        return rounds(type, current, epoch, actor, call, created, finished);
    }

    /** At most twice the stages plus two rounds: a process that still moves after that is left to the next look. */
    private ProcessAnswer rounds(ProcessType type, ProcessView current, long epoch, String actor, ToolCall call, boolean created,
                                 boolean finished) {
        Caller stepCaller = new Caller(current.agentId(), current.tenant(), Set.of(Role.AGENT));
        Duration poll = Duration.ofSeconds(pollSeconds);
        List<String> keys = type.stageKeys(current.key());
        int rounds = 2 * keys.size() + 2;
        Instant recheck = null;
        boolean released = false;
        try {
            for (int round = 0; round < rounds && !released; round++) {
                Instant now = Instant.now();
                Map<String, OperationView> operations = journal.several(current.tenant(), keys);
                Map<String, ApprovalView> approvals = approvals(operations, now);
                ProcessProgress.Progress progress = ProcessProgress.decide(type, current.key(), key -> {
                    OperationView operation = operations.get(key);
                    return StepState.of(operation, operation == null || operation.approvalId() == null ? null
                            : approvals.get(operation.approvalId()), now);
                }, now, poll);
                if (progress.next() instanceof ProcessProgress.Submit submit) {
                    Stage stage = submit.stage();
                    // before sending, the claim renewed: should this advancer die now, the job looks again once it lapsed
                    current = write(current, epoch, progress.status(), stage.key(), progress.detail(),
                            now.plusSeconds(claimSeconds), actor, false);
                    StageSender.Stuck stuck = sender.send(stage, current, operations, stepCaller, call);
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
            }
        } catch (LostClaim lost) {
            ProcessView now = processes.find(current.tenant(), current.key()).orElse(current);
            return new ProcessAnswer.Busy(records.of(now, type), Duration.ofSeconds(1));
        }
        Duration retryAfter = recheck == null ? null : Duration.between(Instant.now(), recheck).isNegative()
                ? Duration.ofSeconds(1) : Duration.between(Instant.now(), recheck);
        return new ProcessAnswer.Progressed(records.of(current, type), created, finished, retryAfter);
    }

    private Map<String, ApprovalView> approvals(Map<String, OperationView> operations, Instant now) {
        List<String> ids = operations.values().stream()
                .filter(op -> op.status() == OperationStatus.PENDING_APPROVAL && op.approvalId() != null)
                .map(OperationView::approvalId).toList();
        return ids.isEmpty() ? Map.of() : processes.approvals(ids, now);
    }

    /** Writes where the process stands under the claim {@code epoch}; unless released, the claim is renewed. */
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

    /**
     * A process whose declaration names an operation this instance's catalog lacks (an older instance in a rolling
     * deploy): needs attention and is looked at again, so an instance that can run it goes on.
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
        return new ProcessAnswer.Progressed(records.of(now, null), false, now.finished(),
                now.nextCheckAt() == null ? null : Duration.ofSeconds(pollSeconds));
    }

    /** The claim went to another advancer while this one worked: it stops, and writes nothing more. */
    private static final class LostClaim extends RuntimeException {
        LostClaim() {
            super(null, null, false, false);
        }
    }
}

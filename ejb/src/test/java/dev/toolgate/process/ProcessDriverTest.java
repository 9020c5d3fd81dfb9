package dev.toolgate.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.access.Caller;
import dev.toolgate.access.Principals;
import dev.toolgate.access.Role;
import dev.toolgate.approval.ApprovalView;
import dev.toolgate.canonical.AgentCommand;
import dev.toolgate.canonical.IJsonReader;
import dev.toolgate.canonical.InvalidCommand;
import dev.toolgate.gateway.CommandGateway;
import dev.toolgate.gateway.GatewayAnswer;
import dev.toolgate.gateway.ToolCall;
import dev.toolgate.journal.Journal;
import dev.toolgate.operation.OperationRefused;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.targets.registry.TargetRegistry;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.RecordedSpans;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import dev.toolgate.trace.Trace;
import dev.toolgate.trace.TraceParent;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.sdk.trace.data.SpanData;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The orchestrator's own decisions around the table: what it sends, under which claim, and what it never does —
 * reopen a finished process, judge a retry by a changed catalog, settle over a process that moved on, send in a
 * revoked agent's name. The journal's SQL is end-to-end tested (ProcessesIT); here it is a map.
 */
class ProcessDriverTest {

    private static final String V1 = """
            {"process": "test.two", "input": {"order_id": {"type": "text"}},
             "steps": [
               {"name": "invoice", "operation": "invoice.create",
                "payload": {"order_id": "${input.order_id}", "amount_minor": 100, "currency": "RUB"},
                "compensation": {"impossible": "test"}},
               {"name": "deal", "operation": "crm.deal.create",
                "payload": {"title": "счёт ${steps.invoice.result.number}", "amount_minor": 100, "currency": "RUB"},
                "compensation": {"none": "test"}}]}""";
    private static final Caller AGENT = new Caller("agent-a", "acme", Set.of(Role.AGENT));
    private static final Caller OPERATOR = new Caller("operator", "acme", Set.of(Role.OPERATOR));
    private static final ToolCall CALL = new ToolCall("start_process", null);

    private final FakeProcesses processes = new FakeProcesses();
    private final FakeSteps steps = new FakeSteps();
    private final List<String> sent = new ArrayList<>();
    private final List<String> sentInTrace = new ArrayList<>();
    private final List<String> sentWithLogTrace = new ArrayList<>();
    private final List<String> sentInSpanTrace = new ArrayList<>();
    private final ProcessDriver driver = new ProcessDriver();
    private final ProcessAdvancer advancer = new ProcessAdvancer();
    private final StageSender sender = new StageSender();
    private final ProcessRecords records = new ProcessRecords();
    private RuntimeException gatewayFails;
    private boolean agentLive = true;

    @BeforeEach
    void wire() {
        use(catalog(V1));
        driver.processes = processes;
        advancer.processes = processes;
        records.processes = processes;
        advancer.journal = steps;
        records.journal = steps;
        driver.advancer = advancer;
        driver.records = records;
        advancer.sender = sender;
        advancer.records = records;
        sender.gateway = new CommandGateway() {
            @Override
            public GatewayAnswer submit(ToolCall call, Caller caller, String key, AgentCommand command) {
                if (gatewayFails != null) {
                    throw gatewayFails;
                }
                sent.add(key + " as " + caller.principalId());
                sentInTrace.add(Trace.traceId());
                sentWithLogTrace.add(Trace.logFields().get("trace_id"));
                sentInSpanTrace.add(Span.current().getSpanContext().getTraceId());
                return new GatewayAnswer.Done(steps.succeed(key, command), false, GatewayAnswer.Ending.SUCCEEDED);
            }
        };
        driver.targets = new TargetRegistry() {
            @Override
            public void requireConfigured(String system) {
            }
        };
        sender.principals = new Principals() {
            @Override
            public boolean live(String principalId) {
                return agentLive;
            }
        };
        advancer.pollSeconds = 30;
        advancer.claimSeconds = 120;
    }

    /** Every bean that reads declarations reads {@code catalog}, as the one application-scoped catalog is shared. */
    private void use(ProcessCatalog catalog) {
        driver.catalog = catalog;
        advancer.catalog = catalog;
        records.catalog = catalog;
    }

    @Test
    void sendsEachStepOnceInOrderAndCompletes() {
        ProcessAnswer.Progressed done = assertInstanceOf(ProcessAnswer.Progressed.class, submit("p1", "o-1"));
        assertEquals(ProcessStatus.COMPLETED, done.record().process().status());
        assertEquals(List.of("p1/invoice as agent-a", "p1/deal as agent-a"), sent);
        assertTrue(done.created());
        assertNull(processes.claimedUntil.get("p1"), "the claim is released");
        submit("p1", "o-1");
        assertEquals(2, sent.size(), "a retry of a completed process sends nothing");
    }

    @Test
    void aResumeSendsInTheSubmittingAgentsNameAndTellsWhoResumed() {
        gatewayFails = new InvalidCommand(InvalidCommand.Reason.UNKNOWN_TARGET, "target '1c' is not configured on this gateway");
        submit("p2", "o-2");
        gatewayFails = null;
        driver.resume(CALL, OPERATOR, "p2");
        assertEquals(List.of("p2/invoice as agent-a", "p2/deal as agent-a"), sent, "never the operator's: the steps are the agent's intent");
        assertTrue(processes.events.get("p2").contains("resumed: resumed by operator"), processes.events.toString());
    }

    @Test
    void aTargetNotConfiguredHereParksTheProcessToBeLookedAtAgain() {
        gatewayFails = new InvalidCommand(InvalidCommand.Reason.UNKNOWN_TARGET, "target '1c' is not configured on this gateway");
        ProcessView parked = processes.rows.get(key(submit("p3", "o-3")));
        assertEquals(ProcessStatus.NEEDS_ATTENTION, parked.status());
        assertNotNull(parked.nextCheckAt(), "an instance that has the target goes on");
    }

    @Test
    void aStepThatCannotBeBuiltSettlesForAPerson() {
        gatewayFails = new InvalidCommand(InvalidCommand.Reason.INVALID_PAYLOAD, "title: must be at most 255 characters");
        ProcessView stuck = processes.rows.get(key(submit("p4", "o-4")));
        assertEquals(ProcessStatus.NEEDS_ATTENTION, stuck.status());
        assertNull(stuck.nextCheckAt(), "it will not change by itself");
    }

    @Test
    void noNewStepIsSentInTheNameOfARevokedAgent() {
        agentLive = false;
        ProcessView stuck = processes.rows.get(key(submit("p5", "o-5")));
        assertEquals(List.of(), sent);
        assertEquals(ProcessStatus.NEEDS_ATTENTION, stuck.status());
        assertTrue(stuck.detail().contains("was revoked"), stuck.detail());
    }

    @Test
    void aRetryIsJudgedByTheRecordedDeclarationNotTodaysCatalog() {
        submit("p6", "o-6");
        // the type's declaration changes: a new required input field; the honest retry is still the same process
        use(catalog(V1.replace("{\"order_id\": {\"type\": \"text\"}}", "{\"order_id\": {\"type\": \"text\"},"
                + " \"region\": {\"type\": \"text\"}}")));
        ProcessAnswer again = submit("p6", "o-6");
        ProcessAnswer.Progressed replayed = assertInstanceOf(ProcessAnswer.Progressed.class, again);
        assertTrue(replayed.replayed());
        assertInstanceOf(ProcessAnswer.KeyReused.class, submit("p6", "o-7"), "another input is another intent");
    }

    @Test
    void aFinishedProcessStaysFinishedWhenItsDeclarationCanNoLongerBeRead() {
        submit("p7", "o-7");
        ProcessView finished = processes.rows.get("p7");
        processes.rows.put("p7", with(finished, finished.status(), (JsonObject) IJsonReader.read("{\"process\": \"gone.type\"}")));
        ProcessAnswer.Progressed answer = assertInstanceOf(ProcessAnswer.Progressed.class, driver.resume(CALL, AGENT, "p7"));
        assertEquals(ProcessStatus.COMPLETED, answer.record().process().status());
        assertEquals(ProcessStatus.COMPLETED, processes.rows.get("p7").status(), "never reopened");
    }

    @Test
    void anUnfinishedProcessWhoseDeclarationCannotRunHereIsParked() {
        gatewayFails = new InvalidCommand(InvalidCommand.Reason.UNKNOWN_TARGET, "not here");
        submit("p8", "o-8");
        gatewayFails = null;
        ProcessView parked = processes.rows.get("p8");
        processes.rows.put("p8", with(parked, ProcessStatus.RUNNING, (JsonObject) IJsonReader.read("{\"process\": \"gone.type\"}")));
        driver.resume(CALL, AGENT, "p8");
        assertEquals(ProcessStatus.NEEDS_ATTENTION, processes.rows.get("p8").status());
        assertNotNull(processes.rows.get("p8").nextCheckAt(), "looked at again: another instance may run it");
        assertEquals(List.of(), sent);
    }

    @Test
    void aResolutionIsRefusedWhenTheProcessMovedOnBeforeTheClaim() {
        gatewayFails = new InvalidCommand(InvalidCommand.Reason.INVALID_PAYLOAD, "bad");
        submit("p9", "o-9");
        processes.onClaim = key -> processes.rows.put(key, with(processes.rows.get(key), ProcessStatus.RUNNING, null));
        OperationRefused refused = assertThrows(OperationRefused.class,
                () -> driver.resolve(OPERATOR, "p9", ProcessStatus.FAILED, "checked by hand"));
        assertEquals(OperationRefused.Reason.PROCESS_NOT_NEEDING_ATTENTION, refused.reason());
        assertEquals(ProcessStatus.RUNNING, processes.rows.get("p9").status(), "the advancer's state stands");
        assertNull(processes.claimedUntil.get("p9"), "and the claim is given back");
    }

    @Test
    void aResolutionSetsTheFinishedTimeRetentionCountsFrom() {
        gatewayFails = new InvalidCommand(InvalidCommand.Reason.INVALID_PAYLOAD, "bad");
        submit("p10", "o-10");
        assertNull(processes.rows.get("p10").completedAt(), "needs attention is not finished");
        driver.resolve(OPERATOR, "p10", ProcessStatus.FAILED, "refunded by hand");
        assertEquals(ProcessStatus.FAILED, processes.rows.get("p10").status());
        assertNotNull(processes.rows.get("p10").completedAt());
    }

    @Test
    void aCallThatFindsTheClaimHeldAnswersBusyAndSendsNothing() {
        processes.heldBySomeoneElse = true;
        assertInstanceOf(ProcessAnswer.Busy.class, submit("p11", "o-11"));
        assertEquals(List.of(), sent);
    }

    @Test
    void aStepWhoseApprovalExpiredWaitsForANewDecisionAndIsNeverSent() {
        Instant now = Instant.now();
        steps.awaitingApproval("p12/invoice", "approval-1");
        processes.approvals.put("approval-1", approval("approval-1", "p12/invoice", now.minusSeconds(60), null));
        ProcessView waiting = processes.rows.get(key(submit("p12", "o-12")));
        assertEquals(List.of(), sent, "sent, it would fail approval_expired and the process would compensate");
        assertEquals(ProcessStatus.AWAITING_APPROVAL, waiting.status());
        assertTrue(waiting.detail().contains("expired"), waiting.detail());
        assertNotNull(waiting.nextCheckAt(), "looked at again: a new approval lets it go on");

        steps.awaitingApproval("p12/invoice", "approval-2"); // an approver decides again
        processes.approvals.put("approval-2", approval("approval-2", "p12/invoice", now.plusSeconds(3600), null));
        driver.resume(CALL, AGENT, "p12");
        assertEquals(List.of("p12/invoice as agent-a", "p12/deal as agent-a"), sent);
        assertEquals(ProcessStatus.COMPLETED, processes.rows.get("p12").status());
    }

    @Test
    void aStepWhoseApprovalWasRevokedIsNeverSent() {
        Instant now = Instant.now();
        steps.awaitingApproval("p13/invoice", "approval-3");
        processes.approvals.put("approval-3", approval("approval-3", "p13/invoice", now.plusSeconds(3600), now.minusSeconds(1)));
        ProcessView waiting = processes.rows.get(key(submit("p13", "o-13")));
        assertEquals(List.of(), sent);
        assertEquals(ProcessStatus.AWAITING_APPROVAL, waiting.status());
        assertTrue(waiting.detail().contains("revoked"), waiting.detail());
    }

    @Test
    void theJobSendsEachStepInItsProcesssTraceForTheJournalTheLogsAndTheTarget() {
        String trace = TraceParent.newTraceId();
        gatewayFails = new InvalidCommand(InvalidCommand.Reason.UNKNOWN_TARGET, "not here"); // parked: the job goes on with it
        try (Trace call = Trace.open(trace, null)) {
            submit("p14", "o-14");
        }
        gatewayFails = null;
        driver.advanceDue(10); // the reconcile job's step, on a thread with no call of its own
        assertEquals(List.of("p14/invoice as agent-a", "p14/deal as agent-a"), sent);
        // what the journal row and events (Trace.traceId), the log lines (Trace.logFields) and, with tracing off, the
        // target's traceparent (TraceParent.outgoing of Trace.traceId) are made of, at the moment each step is sent
        assertEquals(List.of(trace, trace), sentInTrace);
        assertEquals(List.of(trace, trace), sentWithLogTrace);
    }

    @Test
    void withTracingOnTheJobsAdvanceIsASpanOfTheProcesssTraceAndEveryStepUnderIt() {
        try (RecordedSpans exported = RecordedSpans.start()) {
            String trace;
            gatewayFails = new InvalidCommand(InvalidCommand.Reason.UNKNOWN_TARGET, "not here");
            try (Step agentsCall = Spans.root("POST /api/v1/processes", OperationAttributes.none());
                 Trace call = Trace.start(null)) {
                trace = Trace.traceId();
                submit("p15", "o-15");
            }
            gatewayFails = null;
            exported.reset();
            driver.advanceDue(10);
            assertEquals(List.of(trace, trace), sentInTrace, "the journal's trace is the spans' trace");
            assertEquals(List.of(trace, trace), sentInSpanTrace, "and the target's traceparent, the client span's, is in it");
            SpanData advance = exported.finished().stream().filter(span -> span.getName().equals("toolgate.process")).findFirst()
                    .orElseThrow(() -> new AssertionError("no span of the job's advance: " + exported.finished()));
            assertEquals(trace, advance.getTraceId(), "the job's advance continues the process's trace");
            assertEquals(processes.rows.get("p15").spanId(), advance.getParentSpanId(), "under the span that registered the process");
            assertEquals(64 / 4, advance.getParentSpanId().length());
        }
    }

    private static ApprovalView approval(String id, String key, Instant expiresAt, Instant revokedAt) {
        return new ApprovalView(id, "acme", key, "0".repeat(64), "approver", expiresAt.minusSeconds(3600), expiresAt, null,
                revokedAt == null ? null : "approver", revokedAt, null, null);
    }

    private ProcessAnswer submit(String key, String order) {
        return driver.submit(CALL, AGENT, key, new ProcessCommand("test.two", (JsonObject) IJsonReader.read("{\"order_id\": \"" + order + "\"}")));
    }

    private static String key(ProcessAnswer answer) {
        return answer instanceof ProcessAnswer.Progressed p ? p.record().process().key() : ((ProcessAnswer.Busy) answer).record().process().key();
    }

    private static ProcessCatalog catalog(String declaration) {
        ProcessCatalog catalog = new ProcessCatalog();
        catalog.load("test", declaration);
        return catalog;
    }

    private static ProcessView with(ProcessView p, ProcessStatus status, JsonObject declaration) {
        return new ProcessView(p.tenant(), p.key(), p.type(), status, p.agentId(), p.requestHash(), p.payload(), p.waitingOn(),
                p.detail(), p.nextCheckAt(), p.claimEpoch(), p.createdAt(), p.updatedAt(), p.completedAt(), p.traceId(), p.spanId(),
                declaration == null ? p.declaration() : declaration);
    }

    /** The process rows as ProcessJournal keeps them: a claim with its epoch, fenced writes, events. */
    static final class FakeProcesses extends ProcessJournal {
        final Map<String, ProcessView> rows = new HashMap<>();
        final Map<String, Instant> claimedUntil = new HashMap<>();
        final Map<String, List<String>> events = new HashMap<>();
        final Map<String, ApprovalView> approvals = new HashMap<>();
        boolean heldBySomeoneElse;
        java.util.function.Consumer<String> onClaim = key -> { };

        @Override
        public Captured capture(String tenant, String key, ProcessType type, String agent, JsonObject payload, String fingerprint,
                                Instant now, Instant firstCheck) {
            if (rows.containsKey(key)) {
                return new Captured(rows.get(key), false);
            }
            rows.put(key, new ProcessView(tenant, key, type.name(), ProcessStatus.RUNNING, agent, fingerprint, payload, null,
                    "submitted by " + agent, firstCheck, 0, now, now, null, Trace.traceId(), Spans.currentSpanId(),
                    type.declaration()));
            events.computeIfAbsent(key, k -> new ArrayList<>()).add("submitted");
            return new Captured(rows.get(key), true);
        }

        @Override
        public OptionalLong claim(String tenant, String key, Instant now, Duration claim) {
            Instant until = claimedUntil.get(key);
            if (heldBySomeoneElse || (until != null && until.isAfter(now))) {
                return OptionalLong.empty();
            }
            ProcessView p = rows.get(key);
            long epoch = p.claimEpoch() + 1;
            rows.put(key, new ProcessView(p.tenant(), p.key(), p.type(), p.status(), p.agentId(), p.requestHash(), p.payload(),
                    p.waitingOn(), p.detail(), p.nextCheckAt(), epoch, p.createdAt(), p.updatedAt(), p.completedAt(), p.traceId(), p.spanId(),
                    p.declaration()));
            claimedUntil.put(key, now.plus(claim));
            onClaim.accept(key);
            return OptionalLong.of(epoch);
        }

        @Override
        public boolean record(ProcessView before, long epoch, ProcessStatus status, String waitingOn, String detail, Instant nextCheck,
                              String actor, Instant now, Instant claimUntil) {
            ProcessView p = rows.get(before.key());
            if (p.claimEpoch() != epoch) {
                return false;
            }
            boolean finished = status.finished();
            rows.put(p.key(), new ProcessView(p.tenant(), p.key(), p.type(), status, p.agentId(), p.requestHash(), p.payload(), waitingOn,
                    detail, nextCheck, epoch, p.createdAt(), now, finished ? (p.completedAt() == null ? now : p.completedAt()) : null,
                    p.traceId(), p.spanId(), p.declaration()));
            if (claimUntil == null) {
                claimedUntil.remove(p.key());
            } else {
                claimedUntil.put(p.key(), claimUntil);
            }
            events.computeIfAbsent(p.key(), k -> new ArrayList<>()).add(status.dbName() + ": " + detail);
            return true;
        }

        @Override
        public void release(ProcessView process, long epoch) {
            if (rows.get(process.key()).claimEpoch() == epoch) {
                claimedUntil.remove(process.key());
            }
        }

        @Override
        public void note(ProcessView process, String kind, String actor, String detail, Instant now) {
            events.computeIfAbsent(process.key(), k -> new ArrayList<>()).add(kind + ": " + detail);
        }

        @Override
        public Optional<ProcessView> find(String tenant, String key) {
            return Optional.ofNullable(rows.get(key));
        }

        @Override
        public List<ProcessEventView> events(String tenant, String key) {
            return List.of();
        }

        /** Every unfinished process that waits to be looked at again and whose claim is free, whenever that is due. */
        @Override
        public List<ProcessView> due(Instant now, int limit) {
            return rows.values().stream().filter(p -> !p.finished() && p.nextCheckAt() != null)
                    .filter(p -> claimedUntil.get(p.key()) == null || !claimedUntil.get(p.key()).isAfter(now)).limit(limit).toList();
        }

        @Override
        public Map<String, ApprovalView> approvals(Collection<String> ids, Instant now) {
            Map<String, ApprovalView> found = new HashMap<>();
            ids.stream().filter(approvals::containsKey).forEach(id -> found.put(id, approvals.get(id)));
            return found;
        }
    }

    /** The steps' operations, as the gateway would have recorded a success. */
    static final class FakeSteps extends Journal {
        final Map<String, OperationView> operations = new HashMap<>();

        OperationView succeed(String key, AgentCommand command) {
            Instant now = Instant.now();
            JsonObject result = (JsonObject) IJsonReader.read("{\"number\": \"0000-000042\", \"posted\": false}");
            OperationView op = new OperationView("acme", key, "agent-a", command.operation(), command.target(), OperationStatus.SUCCEEDED,
                    "0".repeat(64), command.payload(), List.of(), "00000000-0000-0000-0000-00000000000" + operations.size(), result,
                    null, 1, null, 1, null, 0, null, null, now, now, now, null, null, false, null);
            operations.put(key, op);
            return op;
        }

        /** A step the gateway recorded as awaiting approval, naming {@code approvalId} as its approval. */
        void awaitingApproval(String key, String approvalId) {
            Instant now = Instant.now();
            operations.put(key, new OperationView("acme", key, "agent-a", "invoice.create", "1c", OperationStatus.PENDING_APPROVAL,
                    "0".repeat(64), (JsonObject) IJsonReader.read("{\"order_id\": \"o\", \"amount_minor\": 100, \"currency\": \"RUB\"}"),
                    List.of(), null, null, null, 1, null, 1, null, 0, null, null, now, now, null, null, null, true, approvalId));
        }

        @Override
        public Map<String, OperationView> several(String tenant, Collection<String> keys) {
            Map<String, OperationView> found = new HashMap<>();
            keys.forEach(k -> {
                if (operations.containsKey(k)) {
                    found.put(k, operations.get(k));
                }
            });
            return found;
        }
    }
}

package dev.toolgate.lifecycle;

import dev.toolgate.lifecycle.decisions.AttemptOutcomes;
import dev.toolgate.lifecycle.decisions.Transition;

import dev.toolgate.journal.EventLog;
import dev.toolgate.journal.JournalConnections;
import dev.toolgate.journal.JournalSettings;
import dev.toolgate.journal.OperationRows;
import dev.toolgate.operation.OperationView;
import static dev.toolgate.operation.EventKind.ESCALATED;
import static dev.toolgate.operation.EventKind.OUTCOME;
import static dev.toolgate.operation.EventKind.OUTCOME_REFUSED;

import dev.toolgate.metrics.GatewayMetrics;
import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.RetryPolicies;
import dev.toolgate.targets.RetryPolicy;
import dev.toolgate.trace.Trace;
import dev.toolgate.trace.StructuredLog;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Phase 2 for an attempt: applies {@link AttemptOutcomes}'s transition in one short transaction. An outcome whose
 * attempt lost the lease to a newer holder is recorded as an event, never applied.
 */
@Stateless
public class OutcomeRecorder {

    private static final Logger LOG = Logger.getLogger("dev.toolgate.operations");

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    @Inject
    JournalSettings settings;
    @Inject
    GatewayMetrics metrics;
    @Inject
    RetryPolicies policies;

    /** Runs what a chunk's record counts once its transaction commits (a test without a container runs it at once). */
    Consumer<Runnable> afterCommit = EventLog::onCommit;

    /**
     * What follows an agent's outcome that the fence refused ({@link #settle}, autocommitted by the {@link Dispatcher}):
     * the rare path, which may read and write more, in a transaction of its own.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Phase refused(OperationView attempt, Outcome outcome, Transition to, Instant now, String actor) {
        return refused(JournalConnections.of(em), attempt, outcome, to, now, actor, Runnable::run);
    }

    /**
     * A reconcile chunk's attempts in one transaction, each as {@link #record} does, in its operation's trace and in
     * their order. An attempt whose gate found the approval lapsed wrote its row already: nothing more is written.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public List<Phase> recordAll(List<Dispatcher.Sent> sent, String actor) {
        Connection journal = JournalConnections.of(em);
        List<Phase> phases = new ArrayList<>(sent.size());
        List<Runnable> counts = new ArrayList<>(); // counted once the chunk commits: a chunk rolled back is recorded again
        for (Dispatcher.Sent each : sent) {
            OperationView attempt = each.attempt();
            if (each.lapsed() != null) {
                phases.add(Phase.attempted(attempt, each.lapsed(), true));
                continue;
            }
            try (Trace trace = Trace.open(attempt.traceId(), attempt.key())) {
                phases.add(recorded(journal, attempt, each.outcome(), each.took(), policies.of(attempt.target()), actor, counts::add));
            }
        }
        afterCommit.accept(() -> counts.forEach(Runnable::run));
        return phases;
    }

    /** {@code count}: what to do with the metrics and warnings this record gives, which must not outlive a rollback. */
    private Phase recorded(Connection journal, OperationView attempt, Outcome outcome, Duration took, RetryPolicy policy, String actor,
                           Consumer<Runnable> count) {
        Instant now = Instant.now();
        Transition to = transition(outcome, attempt, policy, now);
        return settle(journal, attempt, outcome, to, took, now, settings.settleWindow(), actor, metrics, count)
                .orElseGet(() -> refused(journal, attempt, outcome, to, now, actor, count));
    }

    static Transition transition(Outcome outcome, OperationView attempt, RetryPolicy policy, Instant now) {
        return AttemptOutcomes.transition(outcome, attempt.attemptCount(), policy, now, ThreadLocalRandom.current()::nextDouble);
    }

    /**
     * The outcome's one fenced statement with its event ({@link FencedWrites#settleAttempt}): the settled row while the
     * attempt still held it, else empty, the refusal being its event; its log line once it has committed.
     */
    static Optional<Phase> settle(Connection journal, OperationView attempt, Outcome outcome, Transition to, Duration took, Instant now,
                                  Duration settleWindow, String actor, GatewayMetrics metrics, Consumer<Runnable> count) {
        String detail = describe(outcome);
        Optional<OperationView> settled = FencedWrites.settleAttempt(journal, attempt, to, now, settleWindow, actor, outcome,
                took.toMillis(), detail);
        boolean applied = settled.isPresent();
        count.accept(() -> metrics.outcome(attempt.target(), applied ? to.status().dbName() : "refused"));
        EventLog.logOnCommit(attempt, actor, applied ? OUTCOME : OUTCOME_REFUSED, attempt.attemptCount(), to.status(),
                outcome.httpStatus(), outcome.errorClass(), took.toMillis(), detail);
        return settled.map(row -> Phase.attempted(attempt, row, true));
    }

    /** Another holder settled or took the row over: the row as it stands, a contradicting effect sent to a person. */
    private Phase refused(Connection journal, OperationView attempt, Outcome outcome, Transition to, Instant now, String actor,
                          Consumer<Runnable> count) {
        if (AttemptOutcomes.extendsSettleWindow(outcome)) {
            FencedWrites.extendSettle(journal, attempt, now, settings.settleWindow());
        }
        OperationView row = OperationRows.current(journal, attempt);
        if (AttemptOutcomes.contradicts(to, row)) {
            contradicted(journal, attempt, to, row, actor, now, count);
            row = OperationRows.current(journal, attempt);
        }
        return Phase.attempted(attempt, row, false);
    }

    /**
     * A lease-less attempt reports an object the journal does not hold: the effect exists, and whatever the row says may
     * mean a second one. An unsettled row goes to a person at once; any other is logged for one.
     */
    private void contradicted(Connection journal, OperationView attempt, Transition to, OperationView now, String actor, Instant at,
                              Consumer<Runnable> count) {
        String why = "CONTRADICTING EFFECT: attempt " + attempt.attemptCount() + " reports target object " + to.objectId()
                + ", which the journal does not hold (it is " + now.status().dbName() + "); check the target for a second effect";
        if (FencedWrites.escalate(journal, now, at) == 1) {
            EventLog.append(em, now, actor, ESCALATED, at, now.attemptCount(), now.status(), why);
            count.accept(() -> metrics.escalated(attempt.target()));
        } else {
            count.accept(() -> StructuredLog.log(LOG, Level.WARNING, "contradicting effect", Map.of("operation_key", attempt.key(),
                    "tenant", attempt.tenant(), "target_object_id", String.valueOf(to.objectId()), "status", now.status().dbName())));
        }
    }

    private static String describe(Outcome outcome) {
        if (outcome instanceof Outcome.Succeeded s) {
            return "target object " + s.objectId();
        }
        if (outcome instanceof Outcome.Rejected r) {
            return r.errorCode() + ": " + r.detail();
        }
        if (outcome instanceof Outcome.Pending p) {
            return "target_pending" + (p.objectId() == null ? "" : ": target object " + p.objectId());
        }
        if (outcome instanceof Outcome.Transient t) {
            return t.errorCode();
        }
        if (outcome instanceof Outcome.Unknown u) {
            return u.errorCode();
        }
        throw new IllegalArgumentException("an outcome this recorder cannot describe: " + outcome);
    }
}

package dev.toolgate.notification;

import dev.toolgate.targets.Attempt;
import dev.toolgate.targets.TargetUnanswered;
import dev.toolgate.lifecycle.decisions.CaptureDecision;
import dev.toolgate.lifecycle.NoticeClaims;
import dev.toolgate.lifecycle.OperationLoop;
import dev.toolgate.journal.JournalSettings;
import dev.toolgate.operation.OperationView;
import dev.toolgate.metrics.GatewayMetrics;
import dev.toolgate.targets.registry.TargetRegistry;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import dev.toolgate.trace.StructuredLog;
import dev.toolgate.trace.Trace;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.logging.Level;
import java.util.Optional;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * Looks up the operation a target's checked notification names by that operation's own key: the reconcile job's
 * look-up, only sooner. The notification says where to look, never what happened; one for an operation settled,
 * leased by someone else, escalated or not ours changes nothing.
 *
 * <p>Look-ups run on {@value #WORKERS} threads of their own behind a bounded queue: a burst is refused with 503
 * (the target delivers again) and never takes agents' threads. A notification lost to a crash loses nothing: the
 * reconcile job looks the operation up anyway. A target often announces an object while the attempt still holds
 * the operation, so a {@code busy} claim is retried for as long as a lease lasts.
 */
@ApplicationScoped
public class Notices {

    static final int WORKERS = 2;
    /** Waits before claiming again an operation an attempt holds: 0.25, 0.5, 1, then every 2 s. */
    static final Duration BUSY_FIRST_WAIT = Duration.ofMillis(250);
    static final Duration BUSY_MAX_WAIT = Duration.ofSeconds(2);
    private static final Logger LOG = Logger.getLogger(Notices.class.getName());

    @Resource
    ManagedThreadFactory threads;
    @Inject
    NoticeSettings settings;
    @Inject
    NoticeClaims claims;
    @Inject
    OperationLoop loop;
    @Inject
    TargetRegistry targets;
    @Inject
    GatewayMetrics metrics;
    @Inject
    JournalSettings journal;

    private ScheduledThreadPoolExecutor workers;
    /** Notifications accepted and not yet looked up: bounded here, as a scheduled pool's own queue is not. */
    private final AtomicInteger waiting = new AtomicInteger();

    @PostConstruct
    void start() {
        workers = new ScheduledThreadPoolExecutor(WORKERS, threads);
        workers.setRemoveOnCancelPolicy(true);
    }

    @PreDestroy
    void stop() {
        workers.shutdownNow(); // queued notifications are dropped: the reconcile job looks their operations up
        try {
            workers.awaitTermination(10, TimeUnit.SECONDS); // a look-up in flight ends at its read timeout
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Queues {@code notice}'s look-up; false when the queue is full. */
    public boolean accept(Notice notice) {
        if (waiting.incrementAndGet() > Math.max(1, settings.queue())) {
            waiting.decrementAndGet();
            refused(notice, null, "queue_full");
            return false;
        }
        Instant giveUpAt = Instant.now().plus(journal.lease()).plusSeconds(1);
        try {
            workers.execute(() -> settle(notice, null, giveUpAt, BUSY_FIRST_WAIT));
        } catch (RejectedExecutionException stopping) {
            waiting.decrementAndGet();
            refused(notice, null, "queue_full");
            return false;
        }
        metrics.notification(notice.target(), "accepted");
        return true;
    }

    public void refusedAtDoor(String target, String reason, boolean logged) {
        metrics.notification(target, reason);
        if (logged) {
            StructuredLog.log(LOG, Level.INFO, "notification refused", Map.of("target", target, "reason", reason));
        }
    }

    private void refused(Notice notice, String[] operation, String reason) {
        metrics.notification(notice.target(), reason);
        Map<String, String> fields = new TreeMap<>(Map.of("target", notice.target(), "reason", reason, "event", notice.event(),
                "object_id", notice.objectId(), "receipt", notice.receipt()));
        if (operation != null) {
            fields.put("tenant", operation[0]);
            fields.put("operation_key", operation[1]);
        }
        StructuredLog.log(LOG, Level.INFO, "notification refused", fields);
    }

    /**
     * {@code operation}: the {tenant, key} an earlier try found (null at first), so the target is asked at most once.
     * A row an attempt still holds is claimed again after {@code wait}, doubling, until {@code giveUpAt}.
     */
    void settle(Notice notice, String[] operation, Instant giveUpAt, Duration wait) {
        boolean again = false;
        String[] id = operation;
        try {
            id = id != null ? id : operationOf(notice).orElse(null);
            if (id == null) {
                refused(notice, null, "not_found");
                return;
            }
            NoticeClaims.Claim claim = claims.claim(id[0], id[1], notice.target(), notice.objectId(), notice.describe());
            if (claim instanceof NoticeClaims.Claim.Refused busy && "busy".equals(busy.reason()) && Instant.now().isBefore(giveUpAt)) {
                String[] found = id;
                Duration next = wait.multipliedBy(2).compareTo(BUSY_MAX_WAIT) > 0 ? BUSY_MAX_WAIT : wait.multipliedBy(2);
                workers.schedule(() -> settle(notice, found, giveUpAt, next), wait.toMillis(), TimeUnit.MILLISECONDS);
                again = true;
                return;
            }
            if (claim instanceof NoticeClaims.Claim.Refused refused) {
                refused(notice, id, refused.reason());
                return;
            }
            metrics.notification(notice.target(), "looked_up_" + lookUp(((NoticeClaims.Claim.Leased) claim).operation(), notice));
        } catch (TargetUnanswered e) { // the object could not be named: the job's look-up finds it later
            refused(notice, id, "target_unanswered");
        } catch (RejectedExecutionException stopping) { // the instance stops: the job looks the operation up
            refused(notice, id, "stopping");
        } catch (RuntimeException e) { // a journal outage mid-way: a lease taken expires, and the job looks it up
            StructuredLog.incident(LOG, "notification look-up failed", Map.of("target", notice.target(), "receipt", notice.receipt()), e);
            metrics.notification(notice.target(), "error");
        } finally {
            if (!again) {
                waiting.decrementAndGet();
            }
        }
    }

    private String lookUp(OperationView leased, Notice notice) {
        OperationAttributes attributes = new OperationAttributes(leased.tenant(), leased.key(), leased.operation(), leased.target());
        try (Step step = Spans.continuing("toolgate.notification", leased.traceId(), leased.spanId(), attributes);
             Trace trace = Trace.open(leased.traceId(), leased.key())) {
            step.set("toolgate.notification.event", notice.event());
            step.set("toolgate.notification.receipt", notice.receipt());
            String outcome = loop.drive(new CaptureDecision.Reconcile(), leased, NoticeClaims.ACTOR, null).outcome();
            step.outcome(outcome);
            return outcome;
        }
    }

    /**
     * Which operation the notification is about: by the key its object carries, else by a recorded object id, else by
     * asking the target. Only where to look: the claim checks the row, the look-up by key decides.
     */
    private Optional<String[]> operationOf(Notice notice) {
        Optional<String[]> hinted = split(notice.keyHint(), notice.tenant());
        if (hinted.isPresent()) {
            return hinted;
        }
        if (notice.tenant() != null) {
            Optional<String> recorded = claims.keyOfObject(notice.tenant(), notice.target(), notice.objectId());
            if (recorded.isPresent()) {
                return Optional.of(new String[] {notice.tenant(), recorded.get()});
            }
        }
        if (!claims.anyOutstanding(notice.tenant(), notice.target())) { // nothing it could settle: the target is not asked
            return Optional.empty();
        }
        return split(targets.downstreamKeyOf(notice.target(), notice.objectKind(), notice.objectId()).orElse(null), notice.tenant());
    }

    /** A downstream key ({@link Attempt#downstreamKey}) as {tenant, key}, when it is one and of the path's tenant. */
    static Optional<String[]> split(String downstreamKey, String pathTenant) {
        int slash = downstreamKey == null ? -1 : downstreamKey.indexOf('/');
        if (slash <= 0 || slash == downstreamKey.length() - 1) {
            return Optional.empty();
        }
        String tenant = downstreamKey.substring(0, slash);
        return pathTenant == null || pathTenant.equals(tenant)
                ? Optional.of(new String[] {tenant, downstreamKey.substring(slash + 1)}) : Optional.empty();
    }
}

package dev.toolgate.benchmark;

import org.HdrHistogram.Histogram;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A backlog of unknown operations — responses lost after the call, their look-up due — settled by the
 * reconcile job of one or more instances started together: as TwoInstancesIT builds it, half the
 * operations did create their object at the simulator (1C's, or Bitrix24's: {@link #TARGET}; the look-up finds
 * it), half did not (the job sends them again). Timed from the start of the runs until the last operation has
 * succeeded.
 */
final class Backlog {

    /**
     * Whose operations the backlog holds: 1C's invoices, or with {@code -Dbench.backlog.target=bitrix24} Bitrix24's deals
     * (to measure that target's look-ups, say with {@code -Dbench.gateway=toolgate.target.bitrix24.lookup-batch=1} and
     * without).
     */
    static final Target TARGET = "bitrix24".equals(System.getProperty("bench.backlog.target", "1c")) ? Target.DEALS : Target.INVOICES;

    /** A target's operation as the backlog holds it, and its object made straight at the simulator. */
    enum Target {
        INVOICES("invoice.create", "1c", Requests.payload(), "") {
            @Override
            void createDirectly(Requests requests, String downstreamKey) throws Exception {
                requests.direct(downstreamKey);
            }
        },
        DEALS("crm.deal.create", "bitrix24", Requests.dealPayload(), " deals") {
            @Override
            void createDirectly(Requests requests, String downstreamKey) throws Exception {
                requests.directDeal(downstreamKey);
            }
        };

        final String operation;
        final String system;
        final String payload;
        /** What the backlog series' load says of it. */
        final String label;

        Target(String operation, String system, String payload, String label) {
            this.operation = operation;
            this.system = system;
            this.payload = payload;
            this.label = label;
        }

        abstract void createDirectly(Requests requests, String downstreamKey) throws Exception;
    }
    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration GIVE_UP = Duration.ofMinutes(20); // a job this slow is broken, not slow
    // longer than the look-up back-off's ceiling (toolgate.reconcile.max-backoff-seconds, 300 s), so an item a
    // slow target had postponed is not taken for stuck
    private static final Duration STALLED = Duration.ofMinutes(6);

    private final Connection journal;
    private final Requests requests;

    Backlog(Connection journal, Requests requests) {
        this.journal = journal;
        this.requests = requests;
    }

    /** Builds a backlog of {@code size} and has {@code gateways} reconcile it; the run's calls are the settled operations. */
    Load.Result settle(int size, List<String> gateways, String operatorToken) throws Exception {
        return prepare(size).settle(gateways, operatorToken);
    }

    /** A backlog built and not yet worked: what {@link #prepare} leaves, for a meter to start after it. */
    interface Prepared {
        Load.Result settle(List<String> gateways, String operatorToken) throws Exception;
    }

    /** Builds a backlog of {@code size}: its rows in the journal, half its documents at the simulator. */
    Prepared prepare(int size) throws Exception {
        String batch = RunNames.fresh();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            keys.add("bench:" + TARGET.operation + ":backlog-" + batch + "-" + i + ":v1");
        }
        vacuumJournal();
        insertUnknown(keys);
        createHalfTheDocuments(keys);
        settleJournal();
        return (gateways, operatorToken) -> settle(batch, size, gateways, operatorToken);
    }

    private Load.Result settle(String batch, int size, List<String> gateways, String operatorToken) throws Exception {
        long started = System.nanoTime();
        for (String gateway : gateways) {
            requests.reconcile(gateway, operatorToken);
        }
        Instant deadline = Instant.now().plus(GIVE_UP);
        long left = unsettled(batch);
        Instant moved = Instant.now();
        while (left > 0) {
            Thread.sleep(POLL.toMillis());
            long now = unsettled(batch);
            if (now < left) {
                moved = Instant.now();
            }
            left = now;
            if (left > 0 && (Instant.now().isAfter(deadline) || Instant.now().isAfter(moved.plus(STALLED)))) {
                throw new IllegalStateException(left + " of the backlog still unsettled after "
                        + Duration.ofNanos(System.nanoTime() - started).toSeconds() + " s, the last settled "
                        + Duration.between(moved, Instant.now()).toSeconds() + " s ago; what the journal says of them: " + unsettledRows(batch));
            }
        }
        long micros = (System.nanoTime() - started) / 1000;
        Histogram last = new Histogram(TimeUnit.MINUTES.toMicros(20), 3);
        last.recordValue(Math.min(micros, last.getHighestTrackableValue()));
        return new Load.Result(size, micros / 1e6, last);
    }

    private void insertUnknown(List<String> keys) throws SQLException {
        Timestamp past = Timestamp.from(Instant.now().minusSeconds(60)); // due now, settle window passed
        journal.setAutoCommit(false);
        try (PreparedStatement insert = journal.prepareStatement(
                "INSERT INTO agent_operation_log (tenant, operation_key, operation_type, request_hash, payload, status,"
                        + " target_system, attempt_count, next_check_at, settle_after, error_code, created_at, updated_at)"
                        + " VALUES (?, ?, ?, ?, CAST(? AS jsonb), 'unknown', ?, 1, ?, ?, 'connection_lost', ?, ?)")) {
            for (String key : keys) {
                insert.setString(1, Requests.TENANT);
                insert.setString(2, key);
                insert.setString(3, TARGET.operation);
                insert.setString(4, "b".repeat(64));
                insert.setString(5, TARGET.payload);
                insert.setString(6, TARGET.system);
                insert.setTimestamp(7, past);
                insert.setTimestamp(8, past);
                insert.setTimestamp(9, past);
                insert.setTimestamp(10, past);
                insert.addBatch();
            }
            insert.executeBatch();
        }
        journal.commit();
        journal.setAutoCommit(true);
    }

    /**
     * Every backlog starts from the same journal: the dead rows the earlier cells, repeats and warm-ups left are vacuumed
     * away first. Left to autovacuum they numbered anywhere from 13,000 to 141,000 at a build, depending on when its
     * last round had run, and a claim walks past each one's index entries: one instance's figures and two instances'
     * compared those counts as much as the instances. The dead rows the backlog's own settling makes are left to
     * autovacuum, as in use (its thresholds: V15).
     */
    private void vacuumJournal() throws SQLException {
        try (Statement s = journal.createStatement()) {
            s.execute("VACUUM agent_operation_log");
        }
    }

    /**
     * The backlog's rows analyzed and checkpointed before the job starts: they were inserted by one statement just now,
     * where a real backlog gathers over minutes, so the statistics that still describe the journal without them and the
     * pages their insert left dirty are the benchmark's doing, not the job's.
     */
    private void settleJournal() throws SQLException {
        try (Statement s = journal.createStatement()) {
            s.execute("ANALYZE agent_operation_log");
            s.execute("CHECKPOINT");
            try (ResultSet r = s.executeQuery("SELECT n_live_tup, n_dead_tup, autovacuum_count FROM pg_stat_user_tables"
                    + " WHERE relname = 'agent_operation_log'")) {
                if (r.next()) {
                    System.out.printf("  backlog built: the operation log holds %,d rows and %,d dead ones (autovacuumed %d times so far)%n",
                            r.getLong(1), r.getLong(2), r.getLong(3));
                }
            }
        }
    }

    private void createHalfTheDocuments(List<String> keys) throws Exception {
        ExecutorService senders = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> sent = new ArrayList<>();
            for (int i = 0; i < keys.size(); i += 2) {
                String downstream = Requests.TENANT + "/" + keys.get(i); // the key the adapter stores (Attempt.downstreamKey)
                sent.add(senders.submit(() -> {
                    TARGET.createDirectly(requests, downstream);
                    return null;
                }));
            }
            for (Future<?> f : sent) {
                f.get();
            }
        } finally {
            senders.shutdown();
        }
    }

    /** The unsettled rows and their events, a few of them: why the run could not finish. */
    private List<String> unsettledRows(String batch) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (PreparedStatement q = journal.prepareStatement("SELECT o.operation_key, o.status, o.error_code, o.attempt_count,"
                + " o.reconcile_count, o.escalated_at, o.lease_until, o.next_check_at,"
                + " (SELECT string_agg(e.kind || ' #' || e.attempt || ' ' || coalesce(e.detail, ''), ' | ' ORDER BY e.occurred_at)"
                + " FROM operation_event e WHERE e.tenant = o.tenant AND e.operation_key = o.operation_key)"
                + " FROM agent_operation_log o WHERE o.tenant = ? AND o.operation_key LIKE ? AND o.status <> 'succeeded' LIMIT 5")) {
            q.setString(1, Requests.TENANT);
            q.setString(2, "bench:" + TARGET.operation + ":backlog-" + batch + "-%");
            try (ResultSet r = q.executeQuery()) {
                while (r.next()) {
                    StringBuilder row = new StringBuilder();
                    for (int c = 1; c <= 9; c++) {
                        row.append(c == 1 ? "" : ", ").append(r.getMetaData().getColumnLabel(c)).append('=').append(r.getString(c));
                    }
                    rows.add(row.toString());
                }
            }
        }
        return rows;
    }

    /**
     * The batch's rows not yet succeeded, every other status named, so PostgreSQL reads the status index: a {@code <>}
     * would scan the whole journal at each poll, and that CPU would be counted as the job's.
     */
    private long unsettled(String batch) throws SQLException {
        try (PreparedStatement q = journal.prepareStatement("SELECT count(*) FROM agent_operation_log WHERE tenant = ?"
                + " AND operation_key LIKE ? AND status IN ('unknown', 'started', 'failed_retryable', 'failed_final', 'pending_approval')")) {
            q.setString(1, Requests.TENANT);
            q.setString(2, "bench:" + TARGET.operation + ":backlog-" + batch + "-%");
            try (ResultSet r = q.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }
}

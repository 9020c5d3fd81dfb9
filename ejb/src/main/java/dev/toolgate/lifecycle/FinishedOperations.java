package dev.toolgate.lifecycle;

import dev.toolgate.lifecycle.decisions.CapturePolicy;

import dev.toolgate.journal.JournalSettings;
import dev.toolgate.operation.OperationView;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonValue;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finished operations this instance settled or read, kept in memory so that their replays need no statement.
 *
 * <p>Never stale: a finished row never changes again (every write that moves or settles a row names status
 * {@code started} or {@code unknown}: {@link OperationWrites}) until the purge takes it, completed before now −
 * retention ({@code journal.Retention}); an entry is kept at most {@code toolgate.replay-cache.seconds} and never past
 * completed_at + retention − {@link #PURGE_MARGIN}. Never foreign: it answers only the same tenant and key with a
 * fingerprint {@link CapturePolicy#replayedAsRead} accepts, for a caller already authenticated.
 *
 * <p>Bounded: {@code toolgate.replay-cache.entries} (0: off) over {@link #STRIPES} stripes, each dropping its least
 * recently used entry when full. A row is held without its payload, which no replay answer shows: a payload is as large
 * as its agent made it, and every entry replaced is garbage to collect (docs/benchmark.md, "Memory").
 */
@ApplicationScoped
public class FinishedOperations {

    /** Clocks may be minutes apart: no instance answers for a row that any instance's purge may have taken. */
    static final Duration PURGE_MARGIN = Duration.ofMinutes(5);
    static final int STRIPES = 16;

    @Inject
    JournalSettings settings;

    private Stripe[] stripes = new Stripe[0];
    private Duration keep = Duration.ZERO;
    private Duration retention = Duration.ZERO;

    public FinishedOperations() { // the container's
    }

    FinishedOperations(int entries, Duration keep, Duration retention) {
        configure(entries, keep, retention);
    }

    @PostConstruct
    void read() {
        Config config = ConfigProvider.getConfig();
        configure(config.getOptionalValue("toolgate.replay-cache.entries", Integer.class).orElse(10_000),
                Duration.ofSeconds(config.getOptionalValue("toolgate.replay-cache.seconds", Long.class).orElse(600L)),
                settings.retention());
    }

    private void configure(int entries, Duration keep, Duration retention) {
        this.keep = keep;
        this.retention = retention;
        int perStripe = (entries + STRIPES - 1) / STRIPES;
        stripes = new Stripe[entries > 0 && !keep.isZero() ? STRIPES : 0];
        for (int i = 0; i < stripes.length; i++) {
            stripes[i] = new Stripe(perStripe);
        }
    }

    /** The finished row of {@code tenant}'s {@code key} that a request with {@code fingerprint} replays; null: ask the journal. */
    public OperationView replay(String tenant, String key, String fingerprint, Instant now) {
        if (stripes.length == 0) {
            return null;
        }
        Entry entry = stripe(tenant, key).get(new Key(tenant, key), now);
        return entry != null && CapturePolicy.replayedAsRead(entry.row().status(), entry.row().requestHash(), fingerprint)
                ? entry.row() : null;
    }

    /** Keeps {@code row} as the journal holds it, if it is finished and far enough from its purge. */
    public void remember(OperationView row, Instant now) {
        if (stripes.length == 0 || !row.status().isTerminal() || row.completedAt() == null) {
            return;
        }
        Instant purgeable = row.completedAt().plus(retention).minus(PURGE_MARGIN);
        Instant until = now.plus(keep).isBefore(purgeable) ? now.plus(keep) : purgeable;
        if (until.isAfter(now)) {
            stripe(row.tenant(), row.key()).put(new Key(row.tenant(), row.key()), new Entry(withoutPayload(row), until));
        }
    }

    /** What a replay answer reads of a finished row: all of it but the payload and the names of the fields withheld from it. */
    static OperationView withoutPayload(OperationView row) {
        return new OperationView(row.tenant(), row.key(), row.agentId(), row.operation(), row.target(), row.status(), row.requestHash(),
                JsonValue.EMPTY_JSON_OBJECT, List.of(), row.targetObjectId(), row.result(), row.errorCode(), row.attemptCount(),
                row.leaseUntil(), row.leaseEpoch(), row.nextCheckAt(), row.reconcileCount(), row.settleAfter(), row.escalatedAt(),
                row.createdAt(), row.updatedAt(), row.completedAt(), row.traceId(), row.spanId(), row.approvalRequired(), row.approvalId());
    }

    int size() {
        int size = 0;
        for (Stripe stripe : stripes) {
            size += stripe.size();
        }
        return size;
    }

    private Stripe stripe(String tenant, String key) {
        return stripes[Math.floorMod(31 * tenant.hashCode() + key.hashCode(), stripes.length)];
    }

    private record Key(String tenant, String key) {
    }

    private record Entry(OperationView row, Instant until) {
    }

    /** One lock's share: an access-ordered map that drops its eldest past {@code capacity}. */
    private static final class Stripe {

        private final LinkedHashMap<Key, Entry> entries;

        Stripe(int capacity) {
            entries = new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Key, Entry> eldest) {
                    return size() > capacity;
                }
            };
        }

        synchronized Entry get(Key key, Instant now) {
            Entry entry = entries.get(key);
            if (entry != null && !now.isBefore(entry.until())) {
                entries.remove(key);
                return null;
            }
            return entry;
        }

        synchronized void put(Key key, Entry entry) {
            entries.put(key, entry);
        }

        synchronized int size() {
            return entries.size();
        }
    }
}

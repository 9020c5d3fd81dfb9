package dev.toolgate.gateway;

import dev.toolgate.journal.JournalSettings;
import dev.toolgate.journal.OperationView;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The finished operations this instance replayed lately, kept to answer the next replay of the same key with no
 * statement at all. A finished row never changes until the purge deletes it ({@code CapturePolicy.replayedAsRead}), so
 * a copy can only be stale once its row may be gone: an entry is kept at most {@code toolgate.replay-cache.seconds},
 * and never past half the retention after its operation finished (the purge's cutoff, with room for the clocks of
 * other instances that purge). Entries are per tenant and key, and a copy is used exactly as its row is: after the caller
 * is authenticated, and only when the payload's fingerprint is the row's. Bounded by
 * {@code toolgate.replay-cache.entries}, the least recently replayed going first; 0 turns it off.
 *
 * <p>Filled by replays only, not by every outcome: a key is cached once an agent has retried it, when a further retry is
 * likely, and the operations nobody retries take no memory.
 */
@ApplicationScoped
public class FinishedAnswers {

    @Inject
    JournalSettings settings;
    @Inject
    @ConfigProperty(name = "toolgate.replay-cache.entries", defaultValue = "4096")
    int capacity;
    @Inject
    @ConfigProperty(name = "toolgate.replay-cache.seconds", defaultValue = "300")
    int seconds;

    private final Map<String, Entry> entries = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
            return size() > capacity;
        }
    };

    /** The finished row of {@code key} this instance holds for {@code tenant}, if it still may; null otherwise. */
    public OperationView find(String tenant, String key, Instant now) {
        if (capacity <= 0) {
            return null;
        }
        String id = id(tenant, key);
        synchronized (entries) {
            Entry entry = entries.get(id);
            if (entry == null) {
                return null;
            }
            if (!now.isBefore(entry.until())) {
                entries.remove(id);
                return null;
            }
            return entry.row();
        }
    }

    /** Keeps a finished row that was just replayed from the journal. */
    public void remember(OperationView row, Instant now) {
        if (capacity <= 0 || !row.status().isTerminal() || row.completedAt() == null) {
            return;
        }
        Instant until = keptUntil(row.completedAt(), now, Duration.ofSeconds(seconds), settings.retention());
        if (now.isBefore(until)) {
            synchronized (entries) {
                entries.put(id(row.tenant(), row.key()), new Entry(row, until));
            }
        }
    }

    /** Until when a copy of a row finished at {@code completedAt} may answer: the sooner of the two bounds. */
    static Instant keptUntil(Instant completedAt, Instant now, Duration ttl, Duration retention) {
        Instant beforeThePurge = completedAt.plus(retention.dividedBy(2));
        Instant afterTheTtl = now.plus(ttl);
        return beforeThePurge.isBefore(afterTheTtl) ? beforeThePurge : afterTheTtl;
    }

    private static String id(String tenant, String key) {
        return tenant + '\u0000' + key; // neither holds a NUL (the key's check refuses control characters)
    }

    private record Entry(OperationView row, Instant until) {
    }
}

package dev.toolgate.benchmark;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

/**
 * The finished operations that {@code gateway: replay} spreads over: a replay the instance answers from the journal,
 * not from its memory, on a slow host as on a fast one. Replayed over the keys a run made, the share an instance still
 * held in its replay memory (10,000 rows) depended on how many keys the host's speed had let the run make: 1.0
 * statements a replay on a fast host, 0.3 on a slow one.
 *
 * <p>So: {@link #KEYS} copies of one finished row the gateway made, under keys of their own, each replay taking the next
 * in one fixed order that visits every key once a round, across all cells. The memory's 16 stripes hold 625 rows each and
 * the pool puts about 1,000 keys in each, so a key comes round again only after more of its stripe than the stripe
 * holds: every replay a miss. Before each cell one untimed round ({@link #prime}) makes every key one the instance has
 * seen ({@code KnownKeys}, which keeps at least its newest 50,000), so each miss is the plain read by key an agent's
 * retry of an older call costs, not the capturing statement a key no instance has seen would.
 */
final class ReplayPool {

    /** Over half again the replay memory's 10,000 rows ({@code toolgate.replay-cache.entries}'s default). */
    static final int KEYS = 16_000;
    /** A prime, so a round visits every key once, the keys of one call and the next far apart. */
    private static final long STRIDE = 7919;

    private final List<String> keys;
    private final AtomicLong next = new AtomicLong();

    /** {@code keys} as they are; their number and {@link #STRIDE} share no factor. */
    ReplayPool(List<String> keys) {
        this.keys = keys;
    }

    /** {@link #KEYS} copies of {@code tenant}'s finished, succeeded {@code key}, each under a key of its own. */
    static ReplayPool copying(Connection journal, String tenant, String key) throws SQLException {
        String prefix = "bench:invoice.create:pool-" + RunNames.fresh() + "-";
        List<String> columns = new ArrayList<>();
        try (PreparedStatement q = journal.prepareStatement("SELECT column_name FROM information_schema.columns"
                + " WHERE table_schema = current_schema() AND table_name = 'agent_operation_log' ORDER BY ordinal_position");
             ResultSet r = q.executeQuery()) {
            while (r.next()) {
                columns.add(r.getString(1));
            }
        }
        String copied = String.join(", ", columns.stream().map(c -> c.equals("operation_key") ? "? || g || ':v1'" : c).toList());
        journal.setAutoCommit(true);
        try (PreparedStatement copy = journal.prepareStatement("INSERT INTO agent_operation_log (" + String.join(", ", columns)
                + ") SELECT " + copied + " FROM agent_operation_log, generate_series(0, ? - 1) g"
                + " WHERE tenant = ? AND operation_key = ? AND status = 'succeeded'")) {
            copy.setString(1, prefix);
            copy.setInt(2, KEYS);
            copy.setString(3, tenant);
            copy.setString(4, key);
            int made = copy.executeUpdate();
            if (made != KEYS) {
                throw new IllegalStateException("copied " + key + " " + made + " times, not " + KEYS + ": is it a succeeded operation?");
            }
        }
        return new ReplayPool(IntStream.range(0, KEYS).mapToObj(g -> prefix + g + ":v1").toList());
    }

    /** The next key of the round. */
    String next() {
        return keys.get((int) Math.floorMod(next.getAndIncrement() * STRIDE, (long) keys.size()));
    }

    /** One round of untimed replays by {@code concurrency} workers, {@link #next} keys in turn. */
    void prime(int concurrency, Replay replay) throws Exception {
        Load.count(concurrency, keys.size(), i -> replay.of(next()));
    }

    @FunctionalInterface
    interface Replay {
        void of(String key) throws Exception;
    }
}

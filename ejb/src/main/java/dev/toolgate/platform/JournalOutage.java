package dev.toolgate.platform;


import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import javax.transaction.xa.XAException;

/**
 * Tells a journal that cannot be reached from a bug, reading the whole cause chain however the container and JPA
 * wrapped it: SQLSTATE class 08, 57P01–57P03 or 53300; a socket error or timeout under an SQLException; the pool
 * giving up ({@link SQLTransientConnectionException}, {@link PoolFailures}); or an {@link XAException} (the journal
 * is the only resource the transaction manager enlists). An outage answer is safe: no target is called inside a
 * journal transaction, so a retry with the same key finds the row committed or not.
 */
public final class JournalOutage {

    private static final Set<String> SERVER_UNAVAILABLE = Set.of("57P01", "57P02", "57P03", "53300");

    private JournalOutage() {
    }

    public static boolean causes(Throwable failure) {
        boolean underSql = false;
        Map<Throwable, Boolean> seen = new IdentityHashMap<>(); // a cause chain may loop
        for (Throwable t = failure; t != null && seen.put(t, true) == null; t = next(t)) {
            if (t instanceof SQLException sql && connectionLost(sql)) {
                return true;
            }
            if (PoolFailures.is(t) || t instanceof XAException
                    || underSql && (t instanceof SocketException || t instanceof SocketTimeoutException)) {
                return true;
            }
            underSql |= t instanceof SQLException;
        }
        return false;
    }

    private static boolean connectionLost(SQLException sql) {
        String state = sql.getSQLState();
        return sql instanceof SQLTransientConnectionException
                || state != null && (state.startsWith("08") || SERVER_UNAVAILABLE.contains(state));
    }

    /** The cause, or for an SQLException without one its chained next exception. */
    private static Throwable next(Throwable t) {
        if (t.getCause() != null) {
            return t.getCause();
        }
        return t instanceof SQLException sql ? sql.getNextException() : null;
    }
}

package dev.toolgate.journal;

import dev.toolgate.platform.PoolFailures;

import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import javax.transaction.xa.XAException;

/**
 * Tells a journal that cannot be reached from a bug. The failure arrives wrapped however the
 * container and JPA wrap it (EJBException → PersistenceException → EclipseLink's DatabaseException →
 * the driver's SQLException, or the pool's own exception), so the whole cause chain is read:
 * <ul>
 *   <li>an SQLException of SQLSTATE class 08 (connection exception, SQL:2016 and PostgreSQL's
 *       Appendix A), 57P01–57P03 (the server shutting down, crashed or not yet accepting connections)
 *       or 53300 (too many connections);</li>
 *   <li>a socket error or timeout underneath an SQLException (a cut or black-holed connection);</li>
 *   <li>the pool giving up: {@link SQLTransientConnectionException}, or the server's own exception for it
 *       ({@link PoolFailures});</li>
 *   <li>the transaction manager failing to begin or end a transaction with the journal
 *       ({@link XAException}: the journal is the only resource it enlists; found by
 *       {@code PostgresRestartIT}, a commit cut off by the restart). Answering it as an outage is safe:
 *       no target is called inside a journal transaction, so the caller's retry with the same key
 *       finds the row committed or not, and goes on from there.</li>
 * </ul>
 * A constraint violation, a syntax error or a serialization failure is not an outage.
 */
public final class JournalOutage {

    private static final Set<String> SERVER_UNAVAILABLE = Set.of("57P01", "57P02", "57P03", "53300");

    private JournalOutage() {
    }

    /** True when {@code failure} says the journal's database could not be reached or used. */
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

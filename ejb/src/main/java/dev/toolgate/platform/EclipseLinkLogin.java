package dev.toolgate.platform;

import org.eclipse.persistence.sessions.DatabaseLogin;
import org.eclipse.persistence.sessions.DatasourceLogin;
import org.eclipse.persistence.sessions.JNDIConnector;
import org.eclipse.persistence.sessions.Session;
import org.eclipse.persistence.sessions.SessionEvent;
import org.eclipse.persistence.sessions.SessionEventAdapter;
import org.eclipse.persistence.sessions.server.ServerSession;

import java.util.logging.Logger;

/**
 * How EclipseLink logs the journal's persistence unit in, set before its first connection (named in
 * persistence.xml as {@code eclipselink.session-event-listener}): no query retries after a lost connection, and the
 * server-managed datasource when {@code toolgate.db.datasource} names one ({@link ServerDataSource}).
 *
 * <p>A session event listener, not a session customizer: the customizer's interface is in another package in
 * Payara Server 6's EclipseLink 4.0.1 than in Payara 7's 5.0, while {@code SessionEventAdapter} is in both.
 * {@code DatabaseOutageIT} (it) shows the retries off; {@code EarSuite}, on both EAR servers, the server's datasource.
 */
public class EclipseLinkLogin extends SessionEventAdapter {

    private static final Logger LOG = Logger.getLogger(EclipseLinkLogin.class.getName());

    @Override
    public void preLogin(SessionEvent event) {
        Session session = event.getSession();
        if (session.getDatasourceLogin() instanceof DatabaseLogin login) {
            // EclipseLink re-runs a read outside a transaction up to 3 times after a lost connection, 5 s
            // apart: with the database away that held every authentication ~10 s before failing. The pool
            // replaces dead connections; a request that met one is answered 503 and retried by its agent.
            login.setQueryRetryAttemptCount(0);
        }
        ServerDataSource.name().ifPresent(name -> {
            ((DatasourceLogin) session.getDatasourceLogin()).setConnector(new JNDIConnector(ServerDataSource.lookup(name)));
            if (session instanceof ServerSession server) {
                // Payara hands EclipseLink a non-transactional twin of the EAR's datasource for reads,
                // which would keep a second pool busy: reads share the one pool, as on WildFly
                server.setReadConnectionPool(server.getDefaultConnectionPool());
            }
            LOG.info(() -> "journal connections from the server's datasource " + name);
        });
    }
}

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
 * How EclipseLink logs the journal's persistence unit in (persistence.xml's {@code eclipselink.session-event-listener}):
 * no query retries, and the server-managed datasource when {@code toolgate.db.datasource} names one. A listener, not a
 * customizer: the customizer's package differs between Payara 6's and 7's EclipseLink. Still needed:
 * {@code DatabaseOutageIT}, {@code EarSuite}.
 */
public class EclipseLinkLogin extends SessionEventAdapter {

    private static final Logger LOG = Logger.getLogger(EclipseLinkLogin.class.getName());

    @Override
    public void preLogin(SessionEvent event) {
        Session session = event.getSession();
        if (session.getDatasourceLogin() instanceof DatabaseLogin login) {
            // EclipseLink retries a read 3 times 5 s apart after a lost connection, holding authentication with the
            // database away; the pool replaces dead connections, and a request that met one is answered 503
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

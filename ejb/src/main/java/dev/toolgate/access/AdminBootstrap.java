package dev.toolgate.access;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.Optional;
import java.util.logging.Logger;

/**
 * The first admin: when no live admin exists and {@code toolgate.admin.bootstrap-token} is set (from
 * the environment or a secret store, never the journal), a principal {@code bootstrap-admin} is created
 * with that token's digest. An admin then creates the real principals and may revoke this one.
 */
@Singleton
@Startup
@DependsOn("JournalSchema")
public class AdminBootstrap {

    private static final Logger LOG = Logger.getLogger(AdminBootstrap.class.getName());

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;
    @Inject
    Principals principals;
    @Inject
    @ConfigProperty(name = "toolgate.admin.bootstrap-token")
    Optional<String> bootstrapToken;

    @PostConstruct
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    void bootstrap() {
        if (bootstrapToken.isEmpty() || principals.anyWith(Role.ADMIN)) {
            return;
        }
        em.createNativeQuery("INSERT INTO principal (principal_id, tenant, roles, token_hash)"
                        + " VALUES ('bootstrap-admin', 'default', ARRAY['admin'], ?1)"
                        + " ON CONFLICT (principal_id) DO UPDATE SET token_hash = EXCLUDED.token_hash, revoked_at = NULL")
                .setParameter(1, Tokens.digest(bootstrapToken.get()))
                .executeUpdate();
        LOG.info("created principal bootstrap-admin from toolgate.admin.bootstrap-token");
    }
}

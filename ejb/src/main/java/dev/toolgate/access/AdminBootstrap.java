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
 * The first admin: with {@code toolgate.admin.bootstrap-token} set (from the environment, never the journal),
 * {@code bootstrap-admin} authenticates with it until an admin revokes it for good.
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
        if (bootstrapToken.isEmpty()) {
            return;
        }
        if (!Boolean.TRUE.equals(em.createNativeQuery("SELECT to_regclass('principal') IS NOT NULL").getSingleResult())) {
            // migrate-at-start is off and nobody has migrated yet: start unready rather than not at all
            LOG.warning("journal schema not migrated: bootstrap-admin is created at the next start after migration");
            return;
        }
        String digest = Tokens.digest(bootstrapToken.get());
        int updated = em.createNativeQuery("UPDATE principal SET token_hash = ?1 WHERE principal_id = 'bootstrap-admin'")
                .setParameter(1, digest).executeUpdate();
        if (updated == 0 && !principals.anyWith(Role.ADMIN)) {
            em.createNativeQuery("INSERT INTO principal (principal_id, tenant, roles, token_hash)"
                            + " VALUES ('bootstrap-admin', 'default', ARRAY['admin'], ?1) ON CONFLICT DO NOTHING")
                    .setParameter(1, digest).executeUpdate();
            LOG.info("created principal bootstrap-admin from toolgate.admin.bootstrap-token");
        }
    }
}

package dev.toolgate.access;

import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

@Stateless
public class Principals {

    public static final String AUTHENTICATE = "SELECT principal_id, tenant, array_to_string(roles, ',') FROM principal"
            + " WHERE token_hash = ?1 AND revoked_at IS NULL";

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;
    @Inject
    AuthenticatedCallers callers;
    @Resource
    TransactionSynchronizationRegistry transactions;

    /** The live principal whose token has this digest, read from the table ({@link AuthenticatedCallers} caches it). */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public Optional<Caller> byDigest(String digest) {
        List<?> rows = em.createNativeQuery(AUTHENTICATE)
                .setParameter(1, digest)
                .getResultList();
        return rows.stream().findFirst().map(row -> caller((Object[]) row));
    }

    /** Returns the new principal's token, which is never stored or shown again; empty if the id is taken. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Optional<String> create(String principalId, String tenant, Set<Role> roles) {
        String token = Tokens.generate();
        int inserted = em.createNativeQuery("INSERT INTO principal (principal_id, tenant, roles, token_hash)"
                        + " VALUES (?1, ?2, string_to_array(?3, ','), ?4) ON CONFLICT (principal_id) DO NOTHING")
                .setParameter(1, principalId)
                .setParameter(2, tenant)
                .setParameter(3, roles.stream().map(Role::dbName).sorted().collect(Collectors.joining(",")))
                .setParameter(4, Tokens.digest(token))
                .executeUpdate();
        return inserted == 1 ? Optional.of(token) : Optional.empty();
    }

    /** The old token stops working at once; empty if there is no such live principal. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Optional<String> rotate(String principalId) {
        String token = Tokens.generate();
        int updated = em.createNativeQuery("UPDATE principal SET token_hash = ?1, rotated_at = ?2"
                        + " WHERE principal_id = ?3 AND revoked_at IS NULL")
                .setParameter(1, Tokens.digest(token))
                .setParameter(2, OffsetDateTime.now(ZoneOffset.UTC))
                .setParameter(3, principalId)
                .executeUpdate();
        forgetAfterCommit(principalId);
        return updated == 1 ? Optional.of(token) : Optional.empty();
    }

    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public boolean revoke(String principalId) {
        boolean revoked = em.createNativeQuery("UPDATE principal SET revoked_at = ?1 WHERE principal_id = ?2 AND revoked_at IS NULL")
                .setParameter(1, OffsetDateTime.now(ZoneOffset.UTC))
                .setParameter(2, principalId)
                .executeUpdate() == 1;
        forgetAfterCommit(principalId);
        return revoked;
    }

    /** Every instance hears the trigger's announcement; this one also forgets at commit, so the revoking admin sees it at once. */
    private void forgetAfterCommit(String principalId) {
        callers.cache().changed(principalId); // a read racing the change must not be stored
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
            }

            @Override
            public void afterCompletion(int status) {
                callers.cache().changed(principalId);
            }
        });
    }

    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<Caller> list() {
        List<?> rows = em.createNativeQuery("SELECT principal_id, tenant, array_to_string(roles, ',') FROM principal"
                + " WHERE revoked_at IS NULL ORDER BY principal_id").getResultList();
        return rows.stream().map(row -> caller((Object[]) row)).toList();
    }

    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public boolean live(String principalId) {
        return !em.createNativeQuery("SELECT 1 FROM principal WHERE principal_id = ?1 AND revoked_at IS NULL")
                .setParameter(1, principalId).getResultList().isEmpty();
    }

    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public boolean anyWith(Role role) {
        return !em.createNativeQuery("SELECT 1 FROM principal WHERE revoked_at IS NULL AND ?1 = ANY (roles) LIMIT 1")
                .setParameter(1, role.dbName()).getResultList().isEmpty();
    }

    /** An unknown role (a newer release's, or by hand) grants nothing rather than failing every request with that token. */
    private static Caller caller(Object[] row) {
        Set<Role> roles = EnumSet.noneOf(Role.class);
        Arrays.stream(((String) row[2]).split(",")).map(Role::known).flatMap(Optional::stream).forEach(roles::add);
        return new Caller((String) row[0], (String) row[1], roles);
    }
}

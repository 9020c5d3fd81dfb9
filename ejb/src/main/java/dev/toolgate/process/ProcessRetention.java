package dev.toolgate.process;

import dev.toolgate.canonical.IJsonReader;
import dev.toolgate.journal.JournalSettings;
import dev.toolgate.journal.Operation;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Forgets finished processes (completed, failed, compensated) past the retention period, each together with
 * its steps' and compensations' operations in one transaction: never a process row gone while some of its steps
 * remain (a later call under the key would then replay those and run the others again), nor the other way round
 * (the steps of an unfinished process are kept by the operations' purge, {@code journal.Retention}). A process
 * that needs attention is kept until a person has settled it.
 */
@Stateless
public class ProcessRetention {

    /** Finished processes past the cutoff, oldest first, locked for this purge. */
    public static final String DUE = "SELECT tenant, process_key, declaration::text FROM process_run"
            + " WHERE status IN ('completed', 'failed', 'compensated') AND completed_at < ?1"
            + " ORDER BY completed_at LIMIT ?2 FOR UPDATE SKIP LOCKED";
    /** One stage's operation, with its events (they cascade). */
    public static final String DELETE_STAGE = "DELETE FROM agent_operation_log WHERE tenant = ?1 AND operation_key = ?2";
    /** Stage keys of a process whose recorded declaration cannot be read any more: every key under the process's. */
    public static final String STAGES_BY_PREFIX = "SELECT operation_key FROM agent_operation_log"
            + " WHERE tenant = ?1 AND starts_with(operation_key, ?2 || '/')";
    /** The process with its events (they cascade). */
    public static final String DELETE_PROCESS = "DELETE FROM process_run WHERE tenant = ?1 AND process_key = ?2";

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    @Inject
    JournalSettings settings;

    /** Deletes up to {@code limit} finished processes past retention with their stages' operations; returns how many processes. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int purge(int limit) {
        List<?> due = em.createNativeQuery(DUE).setParameter(1, Operation.at(Instant.now().minus(settings.retention())))
                .setParameter(2, limit).getResultList();
        for (Object row : due) {
            Object[] c = (Object[]) row;
            String tenant = (String) c[0];
            String key = (String) c[1];
            for (String stage : stageKeys(tenant, key, (String) c[2])) {
                em.createNativeQuery(DELETE_STAGE).setParameter(1, tenant).setParameter(2, stage).executeUpdate();
            }
            em.createNativeQuery(DELETE_PROCESS).setParameter(1, tenant).setParameter(2, key).executeUpdate();
        }
        return due.size();
    }

    private List<String> stageKeys(String tenant, String key, String declaration) {
        List<String> declared = declaredStageKeys(key, declaration);
        if (declared != null) {
            return declared;
        }
        List<String> keys = new ArrayList<>(); // a declaration this release cannot read: every operation under the process's key
        for (Object stage : em.createNativeQuery(STAGES_BY_PREFIX).setParameter(1, tenant).setParameter(2, key).getResultList()) {
            keys.add((String) stage);
        }
        return keys;
    }

    /** Every key a stage of the process may have used — each step's and each step's compensation's — or null when the declaration cannot be read. */
    static List<String> declaredStageKeys(String processKey, String declaration) {
        try {
            ProcessType type = ProcessDeclarations.declaration((JsonObject) IJsonReader.read(declaration));
            List<String> keys = new ArrayList<>();
            for (StepDeclaration step : type.steps()) {
                keys.add(ProcessType.stepKey(processKey, step.name()));
                keys.add(ProcessType.compensationKey(processKey, step.name()));
            }
            return keys;
        } catch (RuntimeException e) {
            return null;
        }
    }
}

package dev.toolgate.process;

import dev.toolgate.canonical.IJsonReader;
import dev.toolgate.journal.JournalSettings;
import dev.toolgate.journal.Operation;
import dev.toolgate.journal.Retention;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * Forgets finished processes (completed, failed, compensated) past the retention period, each together with
 * its steps' and compensations' operations in one transaction: never a process row gone while some of its steps
 * remain (a later call under the key would then replay those and run the others again), nor the other way round
 * (the steps of an unfinished process are kept by the operations' purge, {@code journal.Retention}). A process
 * that needs attention is kept until a person has settled it.
 *
 * <p>A stage's row goes by the operations' own rule ({@link Retention#PURGEABLE}): finished, and finished before the
 * cutoff. That is every row the process itself recorded — its steps finished before it did — while an operation that
 * merely holds a stage's key is left to that rule: one still unknown (another request under the step's key, the
 * process stopped for it) is someone's business, and an agent's retry of it would otherwise send it again.
 */
@Stateless
public class ProcessRetention {

    /** Finished processes past the cutoff, oldest first, locked for this purge. */
    public static final String DUE = "SELECT tenant, process_key, declaration::text FROM process_run"
            + " WHERE status IN ('completed', 'failed', 'compensated') AND completed_at < ?1"
            + " ORDER BY completed_at LIMIT ?2 FOR UPDATE SKIP LOCKED";
    /** One stage's operation, with its events (they cascade), if the operations' purge would forget it too. */
    public static final String DELETE_STAGE = "DELETE FROM agent_operation_log WHERE tenant = ?2 AND operation_key = ?3 AND "
            + Retention.PURGEABLE;
    /**
     * The stages of a process whose recorded declaration cannot be read any more, by their keys' shape: exactly
     * {@code <key>/<step>} and {@code <key>/<step>/compensation} (never {@code <key>/<other>/<step>}, another process's),
     * by the same rule.
     */
    public static final String DELETE_STAGES_BY_KEY = "DELETE FROM agent_operation_log WHERE tenant = ?2"
            + " AND starts_with(operation_key, ?3 || '/') AND " + Retention.PROCESS_OF_STAGE + " = ?3 AND " + Retention.PURGEABLE;
    /** The process with its events (they cascade). */
    public static final String DELETE_PROCESS = "DELETE FROM process_run WHERE tenant = ?1 AND process_key = ?2";

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    @Inject
    JournalSettings settings;

    /** Deletes up to {@code limit} finished processes past retention with their stages' operations; returns how many processes. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int purge(int limit) {
        OffsetDateTime cutoff = Operation.at(Instant.now().minus(settings.retention()));
        List<?> due = em.createNativeQuery(DUE).setParameter(1, cutoff).setParameter(2, limit).getResultList();
        for (Object row : due) {
            Object[] c = (Object[]) row;
            String tenant = (String) c[0];
            String key = (String) c[1];
            List<String> stages = declaredStageKeys(key, (String) c[2]);
            if (stages == null) { // a declaration this release cannot read: the stages by their keys' shape
                em.createNativeQuery(DELETE_STAGES_BY_KEY).setParameter(1, cutoff).setParameter(2, tenant).setParameter(3, key)
                        .executeUpdate();
            } else {
                for (String stage : stages) {
                    em.createNativeQuery(DELETE_STAGE).setParameter(1, cutoff).setParameter(2, tenant).setParameter(3, stage)
                            .executeUpdate();
                }
            }
            em.createNativeQuery(DELETE_PROCESS).setParameter(1, tenant).setParameter(2, key).executeUpdate();
        }
        return due.size();
    }

    /**
     * Every key a stage of the process may have used — each step's and each step's compensation's — or null when the
     * recorded declaration does not name its steps. Only the steps' names are read: a declaration this gateway would
     * no longer run (an operation it names left the catalog) still says which keys its process used.
     */
    static List<String> declaredStageKeys(String processKey, String declaration) {
        JsonValue steps;
        try {
            steps = ((JsonObject) IJsonReader.read(declaration)).get("steps");
        } catch (RuntimeException e) {
            return null;
        }
        if (!(steps instanceof JsonArray array) || array.isEmpty()) {
            return null;
        }
        List<String> keys = new ArrayList<>();
        for (JsonValue step : array) {
            if (!(step instanceof JsonObject object) || !(object.get("name") instanceof JsonString name)
                    || !ProcessDeclarations.isStepName(name.getString())) {
                return null;
            }
            keys.add(ProcessType.stepKey(processKey, name.getString()));
            keys.add(ProcessType.compensationKey(processKey, name.getString()));
        }
        return keys;
    }
}

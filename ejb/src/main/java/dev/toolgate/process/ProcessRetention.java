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
 * Forgets finished processes past retention, each with its stages' operations in one transaction: never a process
 * row gone while steps remain (a later call would replay those and run the others again). A process that needs
 * attention is kept until a person settles it. A stage's row goes by the operations' own rule
 * ({@link Retention#PURGEABLE}), so an operation still unknown under a step's key is kept.
 */
@Stateless
public class ProcessRetention {

    /** Finished processes past the cutoff, oldest first, locked for this purge. */
    public static final String DUE = "SELECT tenant, process_key, declaration::text FROM process_run"
            + " WHERE status IN ('completed', 'failed', 'compensated') AND completed_at < ?1"
            + " ORDER BY completed_at LIMIT ?2 FOR UPDATE SKIP LOCKED";
    public static final String DELETE_STAGE = "DELETE FROM agent_operation_log WHERE tenant = ?2 AND operation_key = ?3 AND "
            + Retention.PURGEABLE;
    /** Stages of a process whose declaration cannot be read any more, by key shape: {@code <key>/<step>[/compensation]} only. */
    public static final String DELETE_STAGES_BY_KEY = "DELETE FROM agent_operation_log WHERE tenant = ?2"
            + " AND starts_with(operation_key, ?3 || '/') AND " + Retention.PROCESS_OF_STAGE + " = ?3 AND " + Retention.PURGEABLE;
    public static final String DELETE_PROCESS = "DELETE FROM process_run WHERE tenant = ?1 AND process_key = ?2";

    @PersistenceContext(unitName = "toolgate")
    EntityManager em;

    @Inject
    JournalSettings settings;

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

    /** Only the steps' names are read: a declaration this gateway would no longer run still says which keys it used. */
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

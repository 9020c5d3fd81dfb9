package dev.toolgate.gateway;

import dev.toolgate.journal.Journal;
import dev.toolgate.journal.JournalSchema;
import dev.toolgate.journal.SchemaFit;
import dev.toolgate.journal.ThisRelease;
import jakarta.ejb.EJBException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;

import java.util.Locale;

/**
 * Whether the journal lets this instance take commands: it answers, and its schema is one this release can work with
 * — its own version, or a newer one that declares it keeps this release working ({@link SchemaFit}). What a readiness
 * probe shows; the instance's own stopping is the door's to add.
 */
@ApplicationScoped
public class Readiness {

    @Inject
    Journal journal;
    @Inject
    JournalSchema schema;

    /**
     * The journal's standing; {@code error} set (and nothing else) when it cannot be judged. {@code schemaVersion}:
     * what the journal holds ({@code none}), {@code expectedVersion}: what this release needs.
     */
    public record JournalCheck(boolean up, String schemaVersion, String expectedVersion, String schemaFit, String meaning,
                               String release, String error) {

        static JournalCheck failed(String error) {
            return new JournalCheck(false, null, null, null, null, null, error);
        }
    }

    public JournalCheck journal() {
        try {
            String needed = schema.version();
            if (needed == null) { // this release carries no migration: nothing to be ready on
                return JournalCheck.failed("no schema in this release");
            }
            Journal.SchemaStanding standing = journal.schemaStanding(Integer.parseInt(needed));
            return new JournalCheck(standing.fit().ready(), standing.held() == null ? "none" : standing.held(), needed,
                    standing.fit().name().toLowerCase(Locale.ROOT), standing.fit().meaning(), ThisRelease.name(), null);
        } catch (PersistenceException | EJBException e) {
            return JournalCheck.failed("the journal database does not answer");
        }
    }
}

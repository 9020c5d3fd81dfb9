package dev.toolgate.journal;

/**
 * Whether this release can serve on the journal's schema, as a pure table of (the version it needs, the version the
 * journal holds, the oldest version the held one declares compatible): ready on its own version, and on a newer one
 * that declares it keeps this release working — so that during a rolling upgrade the first new instance's migration
 * leaves the previous release's instances ready, not all of them answering 503 at once.
 */
public enum SchemaFit {
    /** The journal holds exactly what this release needs. */
    SAME(true, "the schema this release needs"),
    /** A newer release migrated it, and declares that this release still works on it. */
    NEWER_COMPATIBLE(true, "a newer release's schema, declared compatible with this release"),
    /** Not migrated to what this release needs yet (the migration has not run, or another instance is running it). */
    TOO_OLD(false, "older than this release needs: migrate the journal"),
    /** A newer release's schema that declares no compatibility with this release: run the newer release. */
    TOO_NEW(false, "a newer release's schema this release cannot work with"),
    /** No schema at all. */
    NONE(false, "no schema: migrate the journal");

    private final boolean ready;
    private final String meaning;

    SchemaFit(boolean ready, String meaning) {
        this.ready = ready;
        this.meaning = meaning;
    }

    /**
     * @param needed           the newest migration this release carries
     * @param held             the newest migration the journal has, or null
     * @param oldestCompatible what {@code held} declares as the oldest version it keeps working, or null (undeclared)
     */
    public static SchemaFit of(int needed, Integer held, Integer oldestCompatible) {
        if (held == null) {
            return NONE;
        }
        if (held == needed) {
            return SAME;
        }
        if (held < needed) {
            return TOO_OLD;
        }
        return oldestCompatible != null && oldestCompatible <= needed ? NEWER_COMPATIBLE : TOO_NEW;
    }

    public boolean ready() {
        return ready;
    }

    public String meaning() {
        return meaning;
    }
}

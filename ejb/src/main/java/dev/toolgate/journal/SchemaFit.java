package dev.toolgate.journal;

/**
 * Whether this release can serve on the journal's schema: its own version, or a newer one that declares this release
 * compatible, so a rolling upgrade's first migration does not turn the previous release's instances to 503 at once.
 */
public enum SchemaFit {
    SAME(true, "the schema this release needs"),
    /** A newer release migrated it, and declares that this release still works on it. */
    NEWER_COMPATIBLE(true, "a newer release's schema, declared compatible with this release"),
    /** Not migrated to what this release needs yet (the migration has not run, or another instance is running it). */
    TOO_OLD(false, "older than this release needs: migrate the journal"),
    /** A newer release's schema that declares no compatibility with this release: run the newer release. */
    TOO_NEW(false, "a newer release's schema this release cannot work with"),
    NONE(false, "no schema: migrate the journal");

    private final boolean ready;
    private final String meaning;

    SchemaFit(boolean ready, String meaning) {
        this.ready = ready;
        this.meaning = meaning;
    }

    /** {@code oldestCompatible}: the oldest version {@code held} declares it keeps working, or null. */
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

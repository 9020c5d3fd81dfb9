-- Rolling upgrades (docs/operations.md, "Upgrading"): a migration keeps the previous release working, or says it does
-- not. Each migration from this one on declares, in the same file, the oldest schema version whose release still works
-- on the schema it leaves: an instance of such a release stays ready on it (HealthResource, SchemaFit), one of an older
-- release says it is too old. This one only adds a table: the release of version 11 works on it unchanged.
CREATE TABLE journal_compatibility (
    schema_version integer PRIMARY KEY,
    oldest_compatible integer NOT NULL CHECK (oldest_compatible <= schema_version)
);
INSERT INTO journal_compatibility (schema_version, oldest_compatible) VALUES (12, 11);

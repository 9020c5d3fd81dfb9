-- A fingerprint carries its scheme (canonical.FingerprintSchemes, docs/operations.md "Upgrading"): scheme 1 bare, as
-- every row holds it so far, a later scheme N as sN:<hex>. The checks of V1, V5 and V9 took only the bare form, so the
-- release that brings scheme 2 could not have written it: they now take both, before any release writes one.
--
-- Expand only: the new checks accept all the old ones did. Added NOT VALID, so nothing scans the tables under their
-- lock: every existing row was written under the stricter check, and new rows are checked as always.
-- The release of version 12 (the one before this, which added V13 and this) works on this schema unchanged.
-- Each ALTER waits for its table's lock behind any transaction open on it (a report, a dump): meanwhile every statement
-- of every instance would queue behind the ALTER. Given up on after 5 s instead: the migration fails, the new instance does
-- not start, nothing else waited long, and a later start tries again.
SET LOCAL lock_timeout = '5s';
ALTER TABLE agent_operation_log DROP CONSTRAINT agent_operation_log_request_hash_check,
    ADD CONSTRAINT agent_operation_log_request_hash_check CHECK (request_hash ~ '^(s[0-9]{1,4}:)?[0-9a-f]{64}$') NOT VALID;
ALTER TABLE operation_approval DROP CONSTRAINT operation_approval_request_hash_check,
    ADD CONSTRAINT operation_approval_request_hash_check CHECK (request_hash ~ '^(s[0-9]{1,4}:)?[0-9a-f]{64}$') NOT VALID;
ALTER TABLE process_run DROP CONSTRAINT process_run_request_hash_check,
    ADD CONSTRAINT process_run_request_hash_check CHECK (request_hash ~ '^(s[0-9]{1,4}:)?[0-9a-f]{64}$') NOT VALID;
INSERT INTO journal_compatibility (schema_version, oldest_compatible) VALUES (14, 12);

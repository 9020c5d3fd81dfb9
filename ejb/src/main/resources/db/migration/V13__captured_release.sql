-- Which release captured each operation and each process (docs/operations.md, "Upgrading"): during a rolling upgrade,
-- and long after it, an operator reads what a previous release left unfinished straight from the journal. A new release
-- finishes that work under the rules it shares with the one that started it (journal_compatibility, the fingerprint's
-- scheme); this says whose work it is. Empty for what was captured before this migration, and for what an instance of
-- an older release captures while it still runs beside a newer one.
--
-- Expand only: two nullable columns without a default, which PostgreSQL adds without rewriting the table. Each ALTER
-- takes the table's lock for a moment; no journal transaction stays open while a target is called, so the wait for it
-- is as short as the statements in flight. The release of version 12 works on this schema unchanged.
-- Each ALTER waits for its table's lock behind any transaction open on it (a report, a dump): meanwhile every statement
-- of every instance would queue behind the ALTER. Given up on after 5 s instead: the migration fails, the new instance does
-- not start, nothing else waited long, and a later start tries again.
SET LOCAL lock_timeout = '5s';
ALTER TABLE agent_operation_log ADD COLUMN captured_release text;
ALTER TABLE process_run ADD COLUMN captured_release text;
INSERT INTO journal_compatibility (schema_version, oldest_compatible) VALUES (13, 12);

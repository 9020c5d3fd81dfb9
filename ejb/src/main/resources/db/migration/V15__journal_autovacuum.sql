-- The operation log is a queue as much as a table: every operation is inserted and then updated within seconds
-- (started → succeeded, unknown → started → succeeded), and each such update changes an indexed status, so it leaves a
-- dead entry in the indexes the reconcile claim walks in order (agent_operation_log_due_idx for unknown rows,
-- agent_operation_log_status_idx for expired leases) until VACUUM removes it. With PostgreSQL's defaults a table is
-- vacuumed after a fifth of its rows died and analyzed after a tenth changed: on a journal of a million operations the
-- claim then steps over up to 200,000 dead entries each time it is asked for 20 due rows, and a backlog asks it once
-- every 20 items (docs/operations.md, "The journal's housekeeping"; docs/benchmark.md, "The backlog and autovacuum").
-- Vacuumed after 2% died and analyzed after 2% changed, each plus a thousand rows so that a small journal is not
-- vacuumed after every few operations.
--
-- Storage parameters only: nothing any release reads changes, and ALTER TABLE ... SET for autovacuum's parameters takes
-- the SHARE UPDATE EXCLUSIVE lock, which no reading or writing statement waits on (an autovacuum of the table gives way
-- to it; a VACUUM or ANALYZE someone runs by hand makes it wait, 5 s at most, as below). The release of version 12 works on
-- this schema unchanged.
SET LOCAL lock_timeout = '5s';
ALTER TABLE agent_operation_log SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_threshold = 1000,
    autovacuum_analyze_scale_factor = 0.02, autovacuum_analyze_threshold = 1000);
INSERT INTO journal_compatibility (schema_version, oldest_compatible) VALUES (15, 12);

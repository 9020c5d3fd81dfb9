-- Reconciliation (issue 3): when absence at the target starts to count as proof, and escalation.

-- Until this moment a look-up that finds nothing is not proof that nothing happened: the target
-- may still be executing a request whose response we lost (seed 003).
ALTER TABLE agent_operation_log ADD COLUMN settle_after timestamptz;

-- Set when reconciliation gave up (too many failed look-ups) or found a duplicate: a person decides.
ALTER TABLE agent_operation_log ADD COLUMN escalated_at timestamptz;

-- What the reconcile job claims: unknown operations due for a look-up, not escalated.
CREATE INDEX agent_operation_log_due_idx
    ON agent_operation_log (next_check_at)
    WHERE status = 'unknown' AND escalated_at IS NULL;

-- What retention purges: terminal operations by age.
CREATE INDEX agent_operation_log_completed_idx
    ON agent_operation_log (completed_at)
    WHERE status IN ('succeeded', 'failed_final');

-- Approvals, handover and correlation (issue 6, seed 003).

-- An approval is evidence that a person allowed exactly this intent: it is bound to the key and to the
-- fingerprint of the payload, expires, and can be revoked. It is kept apart from attempts: an
-- operation's attempts come and go, the approval is checked again before every one of them.
CREATE TABLE operation_approval (
    approval_id    text PRIMARY KEY CHECK (approval_id ~ '^[0-9a-f-]{36}$'),
    tenant         text NOT NULL,
    operation_key  text NOT NULL,
    request_hash   text NOT NULL CHECK (request_hash ~ '^[0-9a-f]{64}$'),
    granted_by     text NOT NULL,
    granted_at     timestamptz NOT NULL,
    expires_at     timestamptz NOT NULL CHECK (expires_at > granted_at),
    note           text,
    revoked_by     text,
    revoked_at     timestamptz,
    revoke_reason  text,
    CHECK ((revoked_at IS NULL) = (revoked_by IS NULL)),
    FOREIGN KEY (tenant, operation_key) REFERENCES agent_operation_log (tenant, operation_key) ON DELETE CASCADE
);
-- at most one standing approval per operation; an expired one is closed (revoked as superseded) before another is granted
CREATE UNIQUE INDEX operation_approval_standing_idx ON operation_approval (tenant, operation_key) WHERE revoked_at IS NULL;

-- pending_approval rows have sent nothing: attempt 0
ALTER TABLE agent_operation_log DROP CONSTRAINT agent_operation_log_attempt_count_check;
ALTER TABLE agent_operation_log ADD CHECK (attempt_count >= 0);
ALTER TABLE agent_operation_log ADD COLUMN approval_required boolean NOT NULL DEFAULT false;
ALTER TABLE agent_operation_log ADD COLUMN approval_id text; -- the current grant; older ones stay in operation_approval as history
ALTER TABLE agent_operation_log ADD COLUMN trace_id text CHECK (trace_id ~ '^[0-9a-f]{32}$');
ALTER TABLE operation_event ADD COLUMN trace_id text;

-- escalations are what operators look at: find them without a scan
CREATE INDEX agent_operation_log_escalated_idx ON agent_operation_log (tenant, escalated_at) WHERE escalated_at IS NOT NULL;
CREATE INDEX agent_operation_log_pending_approval_idx ON agent_operation_log (tenant, created_at) WHERE status = 'pending_approval';

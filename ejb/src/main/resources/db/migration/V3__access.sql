-- Access (issue 5): principals with hashed tokens, and operation keys scoped by tenant.

-- Who may call the gateway. Only a SHA-256 of each token is kept: tokens are 256-bit random
-- values, so a plain digest is as strong as a password hash here and costs one index probe.
CREATE TABLE principal (
    principal_id  text PRIMARY KEY CHECK (principal_id ~ '^[A-Za-z0-9._-]{1,64}$'),
    tenant        text NOT NULL CHECK (tenant ~ '^[A-Za-z0-9._-]{1,64}$'),
    roles         text[] NOT NULL
                  CHECK (cardinality(roles) > 0
                         AND roles <@ ARRAY['agent', 'approver', 'operator', 'auditor', 'admin']::text[]),
    token_hash    text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
    created_at    timestamptz NOT NULL DEFAULT now(),
    rotated_at    timestamptz,
    revoked_at    timestamptz
);

-- A key names an intent within one tenant: two tenants' equal keys are two operations, and
-- neither can replay or probe the other's.
ALTER TABLE operation_event DROP CONSTRAINT operation_event_operation_key_fkey;
ALTER TABLE agent_operation_log ADD COLUMN tenant text NOT NULL DEFAULT 'default';
ALTER TABLE agent_operation_log ALTER COLUMN tenant DROP DEFAULT;
ALTER TABLE agent_operation_log ADD COLUMN agent_id text;
ALTER TABLE agent_operation_log DROP CONSTRAINT agent_operation_log_pkey;
ALTER TABLE agent_operation_log ADD PRIMARY KEY (tenant, operation_key);

ALTER TABLE operation_event ADD COLUMN tenant text NOT NULL DEFAULT 'default';
ALTER TABLE operation_event ALTER COLUMN tenant DROP DEFAULT;
ALTER TABLE operation_event
    ADD FOREIGN KEY (tenant, operation_key) REFERENCES agent_operation_log (tenant, operation_key) ON DELETE CASCADE;
DROP INDEX operation_event_key_idx;
CREATE INDEX operation_event_key_idx ON operation_event (tenant, operation_key, id);

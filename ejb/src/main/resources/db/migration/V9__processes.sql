-- Processes (docs/processes.md): one intent of several effects. Each step is an ordinary operation of
-- agent_operation_log under the key <process_key>/<step>, so the steps' states live there; this row keeps
-- the process's own: its type, its input and fingerprint, where it stands, and when to look at it again.
CREATE TABLE process_run (
    tenant         text        NOT NULL,
    process_key    text        NOT NULL CHECK (length(process_key) BETWEEN 1 AND 200),
    -- the type's declaration as it was at the start: the process runs by it to the end, whatever the catalog says later
    declaration    jsonb       NOT NULL,
    process_type   text        NOT NULL,
    request_hash   text        NOT NULL CHECK (request_hash ~ '^[0-9a-f]{64}$'),
    payload        jsonb       NOT NULL,
    status         text        NOT NULL CHECK (status IN ('running', 'awaiting_approval', 'completed', 'failed',
                                                          'compensating', 'compensated', 'needs_attention')),
    agent_id       text        NOT NULL,
    waiting_on     text,           -- the key of the stage it waits on, or null when settled
    detail         text        NOT NULL,
    -- when an advancer (the reconcile job) should look at it again; null: nothing changes by itself
    next_check_at  timestamptz,
    -- one advancer at a time: its claim expires, and every write is fenced by the epoch it was given
    claimed_until  timestamptz,
    claim_epoch    bigint      NOT NULL DEFAULT 0,
    created_at     timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL,
    completed_at   timestamptz,
    trace_id       text CHECK (trace_id ~ '^[0-9a-f]{32}$'),
    PRIMARY KEY (tenant, process_key)
);
CREATE INDEX process_run_due_idx ON process_run (next_check_at) WHERE next_check_at IS NOT NULL;
CREATE INDEX process_run_status_idx ON process_run (tenant, status, created_at);
-- the metrics' count of unfinished processes, without reading the finished ones
CREATE INDEX process_run_unfinished_idx ON process_run (status)
    WHERE status IN ('running', 'awaiting_approval', 'compensating', 'needs_attention');

-- What happened to a process, oldest first: submitted, resumed, each change of status with its reason.
CREATE TABLE process_event (
    id           bigserial   PRIMARY KEY,
    tenant       text        NOT NULL,
    process_key  text        NOT NULL,
    occurred_at  timestamptz NOT NULL,
    kind         text        NOT NULL,
    status       text        NOT NULL,
    actor        text        NOT NULL,
    detail       text,
    FOREIGN KEY (tenant, process_key) REFERENCES process_run (tenant, process_key) ON DELETE CASCADE
);
CREATE INDEX process_event_process_idx ON process_event (tenant, process_key, id);

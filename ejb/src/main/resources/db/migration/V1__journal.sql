-- The operation journal (seed 000, step 4) with the columns DESIGN §3 adds.
-- Owned by migrations only: JPA never generates DDL here.

CREATE TABLE agent_operation_log (
    operation_key      text PRIMARY KEY
                       CHECK (char_length(operation_key) BETWEEN 1 AND 255
                              AND operation_key ~ '^[!-~]+$'),   -- visible ASCII: no whitespace, no control characters
    operation_type     text NOT NULL,
    request_hash       text NOT NULL CHECK (request_hash ~ '^[0-9a-f]{64}$'),
    payload            jsonb NOT NULL,
    status             text NOT NULL
                       CHECK (status IN (
                         'pending_approval',
                         'started',
                         'succeeded',
                         'failed_retryable',
                         'failed_final',
                         'unknown'
                       )),
    target_system      text NOT NULL,
    target_object_id   text,
    response_json      jsonb,
    error_code         text,
    attempt_count      integer NOT NULL DEFAULT 1 CHECK (attempt_count >= 1),
    lease_until        timestamptz,
    next_check_at      timestamptz,
    reconcile_count    integer NOT NULL DEFAULT 0 CHECK (reconcile_count >= 0),
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    completed_at       timestamptz,
    -- a success always names the object it created: that is what makes it traceable and replayable
    CHECK (status <> 'succeeded' OR target_object_id IS NOT NULL),
    CHECK ((status IN ('succeeded', 'failed_final')) = (completed_at IS NOT NULL))
);

-- the seed's index: finds expired leases and unsettled operations without a scan
CREATE INDEX agent_operation_log_status_idx
    ON agent_operation_log (status, lease_until);

-- Every step of every operation, append-only: one query by key gives the whole story.
CREATE TABLE operation_event (
    id                 bigserial PRIMARY KEY,
    operation_key      text NOT NULL REFERENCES agent_operation_log (operation_key) ON DELETE CASCADE,
    occurred_at        timestamptz NOT NULL DEFAULT now(),
    kind               text NOT NULL,
    attempt            integer,
    status             text,
    http_status        integer,
    error_class        text,
    duration_ms        integer,
    actor              text,
    detail             text
);

CREATE INDEX operation_event_key_idx ON operation_event (operation_key, id);

-- Append-only is enforced by the database, not by convention. Deletes stay possible
-- (retention purges whole operations, cascading to their events).
CREATE FUNCTION operation_event_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'operation_event is append-only';
END $$;

CREATE TRIGGER operation_event_no_update
    BEFORE UPDATE ON operation_event
    FOR EACH ROW EXECUTE FUNCTION operation_event_append_only();

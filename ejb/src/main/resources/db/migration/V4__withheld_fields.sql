-- Data minimization (issue 5): fields declared sensitive are covered by request_hash but never
-- stored; this names the ones the caller sent (comma-separated), so that a resend knows it can only
-- come from a caller who sends them again.
ALTER TABLE agent_operation_log ADD COLUMN withheld_fields text NOT NULL DEFAULT ''
    CHECK (withheld_fields ~ '^[a-z_,]*$');

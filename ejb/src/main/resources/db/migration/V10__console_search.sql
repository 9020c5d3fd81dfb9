-- The console's search (OperationSearch): a tenant's operations by the trace that captured them, by the
-- target's object id, and all of them by capture time (keyset pages ordered by created_at, key).
-- Costs one index entry each per new operation; target_object_id is written once, at the outcome.
CREATE INDEX agent_operation_log_trace_idx ON agent_operation_log (tenant, trace_id) WHERE trace_id IS NOT NULL;
CREATE INDEX agent_operation_log_object_idx ON agent_operation_log (tenant, target_object_id) WHERE target_object_id IS NOT NULL;
CREATE INDEX agent_operation_log_created_idx ON agent_operation_log (tenant, created_at, operation_key);

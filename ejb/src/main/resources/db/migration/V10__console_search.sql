-- The console's search (OperationSearch): a tenant's operations by trace, by the target's object id, and all of
-- them by capture time (keyset pages ordered by created_at, key).
--
-- By trace through the events: the capture writes the row and its captured event with the same trace in one
-- statement (KeyCapture.INSERT), and every later call (a resume, a decision, a resolve) leaves its trace on the
-- event it appends, so one semi-join on the events' index finds every operation a trace touched. (An index on
-- the row's own trace_id would not serve "the row's trace OR an event's": PostgreSQL uses neither side's index
-- for that OR.)
CREATE INDEX operation_event_trace_idx ON operation_event (tenant, trace_id) WHERE trace_id IS NOT NULL;
-- target_object_id is written once, at the outcome, by an update that already changes indexed columns
CREATE INDEX agent_operation_log_object_idx ON agent_operation_log (tenant, target_object_id) WHERE target_object_id IS NOT NULL;
CREATE INDEX agent_operation_log_created_idx ON agent_operation_log (tenant, created_at, operation_key);

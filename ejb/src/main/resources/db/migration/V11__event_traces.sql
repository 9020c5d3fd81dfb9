-- The console's search by trace (OperationSearch) finds an operation by the events that carry the trace: the
-- capture writes the row and its captured event with the same trace in one statement (KeyCapture.INSERT), and a
-- later call (a resume, a decision, a resolve) leaves its trace on the event it appends. V10 indexed the row's
-- trace, but "the row's trace OR an event's" cannot use an index for either side: PostgreSQL read every event of
-- the journal and then every operation of the tenant. One semi-join on this index reads only the trace's events.
CREATE INDEX operation_event_trace_idx ON operation_event (tenant, trace_id) WHERE trace_id IS NOT NULL;
-- Nothing reads the row's trace by index any more; it would only cost every capture a write.
DROP INDEX agent_operation_log_trace_idx;

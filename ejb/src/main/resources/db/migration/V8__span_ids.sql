-- Tracing (OpenTelemetry): the span that captured an operation, so the reconcile job's trace can link
-- to it (a span link names a trace and a span). Null when tracing was off at capture. Identifiers only.
ALTER TABLE agent_operation_log ADD COLUMN span_id text CHECK (span_id ~ '^[0-9a-f]{16}$');

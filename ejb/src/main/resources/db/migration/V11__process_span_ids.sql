-- Tracing (OpenTelemetry): the span that registered a process — the toolgate.process span of the agent's call —
-- so that the reconcile job's advance of the process, and every step it sends, is a span of the process's own
-- trace under it (docs/telemetry.md). Null when tracing was off at registration. Identifiers only.
ALTER TABLE process_run ADD COLUMN span_id text CHECK (span_id ~ '^[0-9a-f]{16}$');

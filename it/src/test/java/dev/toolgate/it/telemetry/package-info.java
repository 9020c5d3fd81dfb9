/**
 * Tracing (docs/telemetry.md): the spans a gateway exports over OTLP/HTTP to a receiver inside the test —
 * one trace per agent call continuing the agent's {@code traceparent}, the lost answer on the client span, the
 * reconcile job's own trace linked to the operation's, a replacement agent's resume under its own trace, MCP's
 * tool executions, and an exporter whose collector is down costing the agent's calls nothing but counted drops.
 */
package dev.toolgate.it.telemetry;

/**
 * The journal's storage: one row per operation key, the append-only event log, numbered statements, the schema, the
 * datasource and how its outage looks to callers. It decides nothing: which write happens when is the lifecycle's.
 * Nothing above it is imported; what it needs from them is passed in.
 */
package dev.toolgate.journal;

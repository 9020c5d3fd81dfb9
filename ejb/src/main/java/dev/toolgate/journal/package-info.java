/**
 * The journal's storage: one row per operation key ({@link dev.toolgate.journal.Operation}, mapped to
 * {@link dev.toolgate.operation.OperationView} by {@link dev.toolgate.journal.OperationRows}), the
 * append-only event log ({@link dev.toolgate.journal.EventLog}), numbered statements, the schema, the
 * datasource and how an outage of it looks to callers. It decides nothing: which row write happens when is
 * the lifecycle's. It imports only {@code operation} (the values it stores), {@code canonical}, {@code trace} and
 * {@code platform} (the datasource, the driver's and the servers' quirks); every capability above it may import it,
 * and nothing it needs from them is imported — it is passed in.
 */
package dev.toolgate.journal;

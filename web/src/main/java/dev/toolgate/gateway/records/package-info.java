/**
 * The records every front door shows, an operation ({@link dev.toolgate.gateway.records.OperationJson}) and a process
 * ({@link dev.toolgate.gateway.records.ProcessJson}) as JSON, built only from what the journal stored, so REST and MCP
 * carry the same object and a replay is byte-identical to the first answer. It imports nothing of a door.
 */
package dev.toolgate.gateway.records;

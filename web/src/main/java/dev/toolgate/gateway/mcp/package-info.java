/**
 * The MCP front door (docs/mcp.md): Toolgate's operations as MCP tools over Streamable HTTP at {@code /mcp}, with
 * the same keys, guarantees, principals and answers as the REST API, on the request thread, where CDI, the EJB
 * container and the caller's trace exist. It shares the edge and the records with REST and imports no other door.
 */
package dev.toolgate.gateway.mcp;

/**
 * The MCP front door (docs/mcp.md): agents call Toolgate's operations as MCP tools over Streamable HTTP at
 * {@code /mcp}, with the same keys, guarantees, principals and answers as the REST API. JSON-RPC 2.0 on the
 * container's own servlet stack: tool calls run on the request thread, where CDI, the EJB container and
 * the caller's trace exist. What it shares with REST it takes from the edge ({@code gateway.edge}: keys,
 * bearer token, rate limit, problem types) and the records ({@code gateway.records}); it imports no other door.
 */
package dev.toolgate.gateway.mcp;

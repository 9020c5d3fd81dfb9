/**
 * The MCP front door (docs/mcp.md) driven by the official MCP TypeScript SDK's client: the catalog as tools,
 * one effect per key through {@code tools/call}, unknown outcomes clarified, approvals, a replacement agent
 * with the evidence tools, and the bad-input table over raw HTTP.
 */
package dev.toolgate.it.mcp;

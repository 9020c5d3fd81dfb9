/**
 * The edge every front door (REST, MCP, the console) stands behind: the rules every value from outside passes
 * ({@link dev.toolgate.gateway.edge.Inputs}) before any door's code runs, and what the agents' doors share (key header,
 * bearer token, rate limit, problem types), each answering in its own form. It imports no door.
 */
package dev.toolgate.gateway.edge;

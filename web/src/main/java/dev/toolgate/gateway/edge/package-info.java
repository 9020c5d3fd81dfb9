/**
 * The edge every front door (REST, MCP, the console) stands behind: the rules every value from outside passes
 * ({@link dev.toolgate.gateway.edge.Inputs}), applied to each request before any door's code runs, and what the
 * agents' doors share (the key header, the bearer token, the rate limit, the problem types), each door answering in
 * its own form. The doors import it; it imports no door.
 */
package dev.toolgate.gateway.edge;

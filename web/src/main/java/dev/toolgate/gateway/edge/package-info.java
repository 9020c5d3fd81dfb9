/**
 * The edge every front door stands behind: REST ({@code /api}), MCP ({@code /mcp}) and the console
 * ({@code /console}). {@link dev.toolgate.gateway.edge.Inputs} holds the rules every value from outside
 * passes before it is used, logged, traced, stored or sent; {@link dev.toolgate.gateway.edge.InputEdge}
 * applies them to each request's path, query, headers and form fields before any door's code runs, and
 * answers a refusal in the door's own form; {@link dev.toolgate.gateway.edge.ServletDoor} answers every method a
 * servlet door does not serve with 405 and {@code Allow}, in the same form. What the agents' doors share besides: the
 * {@code Idempotency-Key} rule ({@link dev.toolgate.gateway.edge.IdempotencyKeyHeader}), the bearer token
 * ({@link dev.toolgate.gateway.edge.BearerToken}), the rate limit per principal
 * ({@link dev.toolgate.gateway.edge.RateLimiter}) and the problem types
 * ({@link dev.toolgate.gateway.edge.ProblemType}), each door answering them in its own form. What may import
 * it: the doors. What it imports: the canonical rules (card numbers) and the process's key limit; never a door.
 */
package dev.toolgate.gateway.edge;

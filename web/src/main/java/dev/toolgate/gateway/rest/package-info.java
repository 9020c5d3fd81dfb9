/**
 * The agents' HTTP contract (docs/http-api.md): {@code POST /api/v1/operations} with an
 * {@code Idempotency-Key}, {@code GET /api/v1/operations/{key}}. HTTP only: every answer of the
 * gateway is mapped to a status, headers and body in {@link dev.toolgate.gateway.rest.Answers},
 * every error to an {@code application/problem+json} body with a stable type ({@link dev.toolgate.gateway.rest.ProblemMappers}).
 * What it imports: the edge ({@code gateway.edge}) and the records ({@code gateway.records}) it shares with MCP;
 * no other door.
 */
package dev.toolgate.gateway.rest;

/**
 * The agents' HTTP contract (docs/http-api.md): {@code POST /api/v1/operations} with an
 * {@code Idempotency-Key}, {@code GET /api/v1/operations/{key}}. HTTP only: every answer of the
 * gateway is mapped to a status, headers and body in {@link dev.toolgate.gateway.rest.Answers},
 * every error to an {@code application/problem+json} body with a stable type.
 */
package dev.toolgate.gateway.rest;

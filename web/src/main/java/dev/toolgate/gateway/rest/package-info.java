/**
 * The agents' HTTP contract (docs/http-api.md): every answer of the gateway mapped to a status, headers and body in
 * {@link dev.toolgate.gateway.rest.Answers}, every error to a typed {@code application/problem+json} body
 * ({@link dev.toolgate.gateway.rest.ProblemMappers}). Of the doors' code it imports only the edge and the records.
 */
package dev.toolgate.gateway.rest;

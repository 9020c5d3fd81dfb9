/**
 * The console at {@code /console}: the pages people work in — approvers, operators, auditors — signed in
 * through OpenID Connect (Jakarta Security), never with an agent's bearer token. Server-rendered HTML, no
 * script: every page is one or two indexed reads of the journal, every state change a POST that carries
 * the session's CSRF token and calls the same services the REST API calls. docs/console.md.
 *
 * <p>{@link dev.toolgate.gateway.console.ConsoleRoutes} is the map of its pages and actions, each with the access
 * it asks; the desks ({@code ApprovalDesk}, {@code OperationDesk}, {@code ReconcileDesk}) answer them, the
 * {@code *Pages} classes draw them. What it imports: the services, and the edge's input rules
 * ({@code gateway.edge}); never another door.
 */
package dev.toolgate.gateway.console;

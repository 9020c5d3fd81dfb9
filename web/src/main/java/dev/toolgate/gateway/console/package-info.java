/**
 * The console at {@code /console}, where approvers, operators and auditors work, signed in through OpenID Connect,
 * never with an agent's token (docs/console.md). Server-rendered HTML, no script; every state change a POST with the
 * session's CSRF token, calling the same services as the REST API. {@link dev.toolgate.gateway.console.ConsoleRoutes}
 * is the map. It imports the services and {@code gateway.edge}, never another door.
 */
package dev.toolgate.gateway.console;

/**
 * The console at {@code /console}, where people work, signed in through OpenID Connect, never with an agent's token
 * (docs/console.md). Server-rendered HTML, no script; every state change a POST with the session's CSRF token, calling
 * the REST API's services. {@link dev.toolgate.gateway.console.ConsoleRoutes} is the map. It imports no other door.
 */
package dev.toolgate.gateway.console;

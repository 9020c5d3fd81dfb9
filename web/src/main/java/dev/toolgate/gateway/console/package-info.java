/**
 * The console at {@code /console}: the pages people work in — approvers, operators, auditors — signed in
 * through OpenID Connect (Jakarta Security), never with an agent's bearer token. Server-rendered HTML, no
 * script: every page is one or two indexed reads of the journal, every state change a POST that carries
 * the session's CSRF token and calls the same services the REST API calls. docs/console.md.
 */
package dev.toolgate.gateway.console;

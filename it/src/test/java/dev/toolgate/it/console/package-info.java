/**
 * The console in a real browser (Debian's chromium through Selenium) against a real Keycloak: people sign in,
 * approve, resolve and search as the seeds' story needs, and everything that must be refused is.
 */
package dev.toolgate.it.console;

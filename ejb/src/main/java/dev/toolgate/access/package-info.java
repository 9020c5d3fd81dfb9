/**
 * Who may call the gateway: principals of a tenant with roles, authenticated by bearer tokens of
 * which only a digest is stored. Managed at run time (no redeploy); an agent can never approve.
 */
package dev.toolgate.access;

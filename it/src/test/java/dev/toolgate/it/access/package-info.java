/** Who may call: tokens and principals, roles, tenants kept apart, rate limits. */
package dev.toolgate.it.access;

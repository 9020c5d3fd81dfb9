/**
 * Outcomes nobody heard, settled by looking up the key before anything is sent again: on the caller's
 * retry, by the reconcile job after a crash or restart, by two instances over one backlog, under a
 * seeded fault matrix; and escalated to a person when a look-up cannot settle them.
 */
package dev.toolgate.it.reconciliation;

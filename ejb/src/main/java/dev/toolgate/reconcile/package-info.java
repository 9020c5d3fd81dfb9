/**
 * Settles operations whose outcome is unknown by asking the target, by our key, whether the
 * effect exists: found → succeeded; pending or
 * unreachable → wait, back off, escalate after too many tries; absent after the settle window →
 * the next attempt, through the same dispatch path as an agent's call; duplicate → escalate.
 */
package dev.toolgate.reconcile;

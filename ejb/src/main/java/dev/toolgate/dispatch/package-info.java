/**
 * Sends an operation's leased attempt to its target and records the outcome, retrying transient
 * failures within the target's policy. Used by the agent's call and by reconciliation alike, so
 * every attempt follows the same path. Only the journal's recorded payload is ever sent.
 */
package dev.toolgate.dispatch;

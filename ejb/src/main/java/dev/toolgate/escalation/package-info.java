/**
 * Escalations (seed 003): what reconciliation could not settle — a duplicate, or an outcome still
 * unclear after its look-ups — waits for a person. Operators list them and resolve each with evidence;
 * the resolution is audited under the operator's identity. Nothing here guesses.
 */
package dev.toolgate.escalation;

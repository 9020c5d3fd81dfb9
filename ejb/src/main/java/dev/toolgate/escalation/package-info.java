/**
 * Escalations: what reconciliation could not settle — a duplicate, or an outcome still unclear after
 * its look-ups — waits for a person. {@link dev.toolgate.lifecycle.EscalationRule} says when;
 * {@link dev.toolgate.escalation.Escalations} lists them and resolves one with evidence, audited under the
 * operator's identity. Nothing automatic changes an escalated operation, and nothing here guesses.
 */
package dev.toolgate.escalation;

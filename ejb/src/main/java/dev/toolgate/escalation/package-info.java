/**
 * Escalations: what reconciliation could not settle waits for a person, who resolves it with evidence under their own
 * name. Nothing automatic changes an escalated operation; {@link dev.toolgate.lifecycle.decisions.EscalationRule} says when.
 */
package dev.toolgate.escalation;

/**
 * Approvals (DESIGN §5, §7; seed 003): a person allows exactly one intent — the key and the fingerprint
 * of its payload — until an expiry, and may revoke it. Kept apart from technical attempts: the journal
 * checks the approval again before every new attempt, so a stored approval is evidence, never a
 * standing licence.
 */
package dev.toolgate.approval;

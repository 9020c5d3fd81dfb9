/**
 * Approvals: a person allows exactly one intent (key and payload fingerprint) until an expiry, and may revoke it. The
 * lifecycle reads the standing again under the row lock before every new attempt, so a stored approval is evidence,
 * never a standing licence. What a decision writes to the operation's row is the lifecycle's statement, injected
 * behind {@link dev.toolgate.approval.ApprovalTransitions}, so this package never imports the lifecycle back.
 */
package dev.toolgate.approval;

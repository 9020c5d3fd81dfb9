/**
 * Approvals: a person allows exactly one intent — the key and the fingerprint of its payload — until
 * an expiry, and may revoke it. This package owns the approval's row ({@link dev.toolgate.approval.Approval}),
 * its standing at a moment ({@link dev.toolgate.approval.ApprovalStanding}) and the grant/revoke service
 * ({@link dev.toolgate.approval.Approvals}), each under the operation's row lock. What a decision writes to the
 * operation's row is the lifecycle's statement, injected behind {@link dev.toolgate.approval.ApprovalTransitions}:
 * the lifecycle reads an approval's standing, so this package never imports it back. Approvals are kept apart
 * from technical attempts: the lifecycle reads the standing again, under the same lock, before every new
 * attempt, so a stored approval is evidence, never a standing licence. What an approver sees beside a refund — what its
 * payment still covers — is asked of the payment system here ({@link dev.toolgate.approval.RefundCoverage}), so the
 * console calls no target itself.
 */
package dev.toolgate.approval;

/**
 * An operation's states and every transition, from capture to settled. The decisions are pure tables,
 * tested row by row: what a request may do with the row ({@link dev.toolgate.lifecycle.CapturePolicy}), what
 * an attempt's outcome does to it ({@link dev.toolgate.lifecycle.AttemptOutcomes}), what a look-up's answer
 * does to an unknown operation ({@link dev.toolgate.lifecycle.LookupDecisions}), when absence proves nothing
 * happened ({@link dev.toolgate.lifecycle.SettleWindows}) and when a person must decide
 * ({@link dev.toolgate.lifecycle.EscalationRule}). The phase beans apply them, each in its own
 * {@code REQUIRES_NEW} transaction: {@link dev.toolgate.lifecycle.KeyCapture},
 * {@link dev.toolgate.lifecycle.OutcomeRecorder}, {@link dev.toolgate.lifecycle.LookupRecorder},
 * {@link dev.toolgate.lifecycle.LeaseRenewals}, {@link dev.toolgate.lifecycle.DueOperations}. Every write of an
 * operation's row is one SQL statement with its event here: {@link dev.toolgate.lifecycle.FencedWrites} (outcomes and
 * look-ups), {@link dev.toolgate.lifecycle.Leases} (taking and renewing a lease),
 * {@link dev.toolgate.lifecycle.ApprovalWrites} (an approval's grant and lapse) and
 * {@link dev.toolgate.lifecycle.Resolutions} (a person's), each fenced by attempt, lease epoch and status
 * so a holder whose lease was taken over never overwrites a newer decision. {@link dev.toolgate.lifecycle.OperationLoop}
 * is the one loop, from the capture to settled; each of its steps hands it a {@link dev.toolgate.lifecycle.Phase}. The
 * state machine and its fences: {@code docs/lifecycle.md}.
 *
 * <p>It imports {@code journal} (storage), {@code approval} (an approval's standing), {@code access},
 * {@code targets}, {@code metrics} and {@code trace}; none of them imports it.
 */
package dev.toolgate.lifecycle;

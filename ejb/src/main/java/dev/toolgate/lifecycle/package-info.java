/**
 * An operation's states and every transition, from capture to settled ({@code docs/lifecycle.md}: the state machine and
 * its fences). Its files by role:
 * <ul>
 *   <li><b>The loop</b>: {@link dev.toolgate.lifecycle.OperationLoop}, the one result each step hands back
 *       ({@link dev.toolgate.lifecycle.Phase}), the finished rows an instance holds for replays
 *       ({@link dev.toolgate.lifecycle.FinishedOperations}).</li>
 *   <li><b>The decisions, pure tables</b>, in {@code lifecycle.decisions}: {@link dev.toolgate.lifecycle.decisions.CapturePolicy} (→
 *       {@link dev.toolgate.lifecycle.decisions.CaptureDecision}, from an {@link dev.toolgate.lifecycle.decisions.OperationState}),
 *       {@link dev.toolgate.lifecycle.decisions.AttemptOutcomes} and {@link dev.toolgate.lifecycle.decisions.LookupDecisions} (→
 *       {@link dev.toolgate.lifecycle.decisions.Transition}, {@link dev.toolgate.lifecycle.decisions.LookupDecision}),
 *       {@link dev.toolgate.lifecycle.decisions.NoticeDecisions}, {@link dev.toolgate.lifecycle.decisions.SettleWindows},
 *       {@link dev.toolgate.lifecycle.decisions.EscalationRule}, {@link dev.toolgate.lifecycle.decisions.OutgoingCheck}.</li>
 *   <li><b>The phases</b>, beans that each commit on their own, never across a target call: the capture
 *       ({@link dev.toolgate.lifecycle.FirstCapture} → {@link dev.toolgate.lifecycle.KeyLook},
 *       {@link dev.toolgate.lifecycle.KeyCapture}), the attempt ({@link dev.toolgate.lifecycle.Dispatcher} with its
 *       {@link dev.toolgate.lifecycle.AttemptGate}, {@link dev.toolgate.lifecycle.Attempts}), its record
 *       ({@link dev.toolgate.lifecycle.OutcomeRecorder}), the look-up ({@link dev.toolgate.lifecycle.Reconciler},
 *       {@link dev.toolgate.lifecycle.LookupRecorder}), the job's and a notification's claims
 *       ({@link dev.toolgate.lifecycle.DueOperations}, {@link dev.toolgate.lifecycle.ConcurrentLookups},
 *       {@link dev.toolgate.lifecycle.NoticeClaims}), leases ({@link dev.toolgate.lifecycle.Leases},
 *       {@link dev.toolgate.lifecycle.LeaseRenewals} → {@link dev.toolgate.lifecycle.Renewal}), approvals' and
 *       people's writes ({@link dev.toolgate.lifecycle.ApprovalWrites}, {@link dev.toolgate.lifecycle.Resolutions}).</li>
 *   <li><b>The statements</b>: every write of a row is one statement with its event
 *       ({@link dev.toolgate.lifecycle.OperationWrites}, bound by {@link dev.toolgate.lifecycle.FencedWrites}), fenced by
 *       attempt, lease epoch and status, so a holder whose lease was taken over never overwrites a newer decision.</li>
 * </ul>
 * None of the packages it imports imports it.
 */
package dev.toolgate.lifecycle;

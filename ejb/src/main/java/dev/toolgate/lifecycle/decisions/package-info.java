/**
 * The lifecycle's decisions, each a pure table of what the row and the target's answer are to what happens next
 * ({@code docs/lifecycle.md}): the capture ({@link dev.toolgate.lifecycle.decisions.CapturePolicy} →
 * {@link dev.toolgate.lifecycle.decisions.CaptureDecision}), an attempt's outcome
 * ({@link dev.toolgate.lifecycle.decisions.AttemptOutcomes} → {@link dev.toolgate.lifecycle.decisions.Transition}), a
 * look-up's answer ({@link dev.toolgate.lifecycle.decisions.LookupDecisions} →
 * {@link dev.toolgate.lifecycle.decisions.LookupDecision}), a notification
 * ({@link dev.toolgate.lifecycle.decisions.NoticeDecisions}), the settle windows, escalation and the last check before
 * anything is sent. No I/O, no clock of their own, no bean: the phases in {@code dev.toolgate.lifecycle} read the row,
 * ask here, and write what they are told; nothing here imports them.
 */
package dev.toolgate.lifecycle.decisions;

/**
 * An operation's states and every transition, from capture to settled. The decisions are pure tables
 * ({@link dev.toolgate.lifecycle.CapturePolicy}, {@link dev.toolgate.lifecycle.AttemptOutcomes},
 * {@link dev.toolgate.lifecycle.LookupDecisions}, {@link dev.toolgate.lifecycle.SettleWindows},
 * {@link dev.toolgate.lifecycle.EscalationRule}); phase beans apply them, each in its own {@code REQUIRES_NEW}
 * transaction. Every write of a row is one statement with its event ({@link dev.toolgate.lifecycle.OperationWrites}),
 * fenced by attempt, lease epoch and status so a holder whose lease was taken over never overwrites a newer decision.
 * {@link dev.toolgate.lifecycle.OperationLoop} is the one loop. State machine and fences: {@code docs/lifecycle.md}.
 * None of the packages it imports imports it.
 */
package dev.toolgate.lifecycle;

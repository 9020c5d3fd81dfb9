/**
 * An operation's states and every transition, from capture to settled ({@code docs/lifecycle.md}).
 * {@link dev.toolgate.lifecycle.OperationLoop} drives each step; the decisions are pure tables in
 * {@code lifecycle.decisions}; the phases are beans that each commit on their own, never across a target call: the
 * capture ({@code FirstCapture}, {@code KeyCapture}), the attempt ({@code Dispatcher}, {@code OutcomeRecorder}), the
 * look-up ({@code Reconciler}, {@code LookupRecorder}), the job's and a notification's claims ({@code DueOperations},
 * {@code NoticeClaims}). Every write of a row is one statement with its event ({@code OperationWrites}), fenced by
 * attempt, lease epoch and status, so a holder whose lease was taken over never overwrites a newer decision. None of
 * the packages it imports imports it.
 */
package dev.toolgate.lifecycle;

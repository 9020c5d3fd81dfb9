/**
 * The durable operation journal: one row per operation key, the append-only event log, and the
 * two short atomic phases around every target call — capture before it, record after it.
 *
 * <p>{@link dev.toolgate.journal.KeyCapture} decides what a request may do under the row lock
 * ({@link dev.toolgate.journal.CapturePolicy}); {@link dev.toolgate.journal.OutcomeRecorder} writes what
 * an attempt or a look-up established ({@link dev.toolgate.journal.AttemptOutcomes},
 * {@link dev.toolgate.journal.LookupDecisions}), fenced by attempt, lease epoch and status so a holder
 * whose lease was taken over never overwrites a newer decision. Both are {@code REQUIRES_NEW}: they
 * commit on their own, and no transaction stays open while a target is called. The state machine and
 * its fences: {@code docs/lifecycle.md}.
 */
package dev.toolgate.journal;

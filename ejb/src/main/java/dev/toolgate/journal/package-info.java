/**
 * The durable operation journal: one row per operation key, the append-only event log, and the
 * two short atomic phases around every target call (seed 000, steps 4–5).
 *
 * <p>{@link dev.toolgate.journal.KeyCapture} decides what a request may do under the row lock;
 * {@link dev.toolgate.journal.OutcomeRecorder} writes what happened, fenced by attempt number so a
 * caller whose lease expired can never overwrite a newer attempt. Both are {@code REQUIRES_NEW}:
 * they commit on their own, and no transaction stays open while a target is called.
 */
package dev.toolgate.journal;

/**
 * Job plumbing for reconciliation and retention: the Jakarta Batch artifacts and the timers that
 * start them. The work itself is the ejb module's: {@link dev.toolgate.lifecycle.DueOperations}
 * claims, {@link dev.toolgate.lifecycle.OperationLoop} settles, {@link dev.toolgate.journal.Retention} purges.
 */
package dev.toolgate.reconcile.job;

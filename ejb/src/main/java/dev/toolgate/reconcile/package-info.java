/**
 * Reconcile runs as the doors see them ({@link dev.toolgate.reconcile.ReconcileRuns}): what the batch module's job
 * offers the API and the console, declared here so that the web module needs nothing of the batch module. The
 * reconciling itself is the lifecycle's.
 */
package dev.toolgate.reconcile;

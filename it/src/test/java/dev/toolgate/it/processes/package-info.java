/**
 * Processes end to end: one intent of several effects, each step its own operation and key, completed,
 * replayed, refused, faulted, compensated, held at an approval, handed over, and finished by the reconcile
 * job with no agent; the process fault matrix.
 */
package dev.toolgate.it.processes;

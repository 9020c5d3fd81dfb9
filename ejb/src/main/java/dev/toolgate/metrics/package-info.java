/**
 * What operators watch: counters of captures, replays, conflicts, unknowns, reconcile outcomes
 * and escalations, per-target call latency and error classes, and the reconcile lag, written in the
 * Prometheus text format. Per instance and in memory, as Prometheus expects: it sums instances itself.
 * Plain JAX-RS and no MicroProfile Metrics, so the same EAR exposes the same figures on every server.
 */
package dev.toolgate.metrics;

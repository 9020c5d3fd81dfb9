/**
 * What operators watch, in the Prometheus text format, per instance and in memory (Prometheus sums instances).
 * Plain JAX-RS, no MicroProfile Metrics, so the same EAR exposes the same figures on every server.
 */
package dev.toolgate.metrics;

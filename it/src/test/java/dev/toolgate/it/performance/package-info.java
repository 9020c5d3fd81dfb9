/**
 * What the hot path costs, counted where counts are stable on a noisy machine: database statements
 * and commits per operation. Timings live in the benchmark module, never in tests.
 */
package dev.toolgate.it.performance;

/**
 * Processes: one intent of several effects (docs/processes.md). A process type declares ordered steps;
 * each step is an ordinary operation under a key derived from the process key and the step's name, so
 * every guarantee of a single operation holds for it. {@link dev.toolgate.process.ProcessProgress} decides,
 * from the steps' recorded states alone, what happens next; {@link dev.toolgate.process.ProcessDriver}
 * takes each caller's request and {@link dev.toolgate.process.ProcessAdvancer} (no transaction open) applies
 * the table through the gateway, and {@link dev.toolgate.process.ProcessJournal} keeps the process row,
 * fenced by the advancer's claim.
 */
package dev.toolgate.process;

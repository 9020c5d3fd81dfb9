/**
 * Processes: one intent of several effects (docs/processes.md). Each step is an ordinary operation under a key
 * derived from the process key and step name, so every guarantee of a single operation holds for it.
 * {@link dev.toolgate.process.ProcessProgress} decides from recorded states alone; the advancer applies it with no
 * transaction open, fenced by its claim.
 */
package dev.toolgate.process;

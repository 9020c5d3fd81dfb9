/**
 * The lifecycle's decisions ({@code docs/lifecycle.md}): pure tables from the row and the target's answer to what
 * happens next, for the capture, an attempt's outcome, a look-up, a notification, the settle windows, escalation and
 * the last check before anything is sent. No I/O, no clock of their own, no bean: the phases in
 * {@code dev.toolgate.lifecycle} read the row, ask here and write what they are told; nothing here imports them.
 */
package dev.toolgate.lifecycle.decisions;

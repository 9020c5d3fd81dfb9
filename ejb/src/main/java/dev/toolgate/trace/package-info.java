/**
 * Correlation: the W3C trace id of the agent's call travels with the
 * operation — on its journal row, on every event, in every log line written while handling it, and
 * to the target where its contract allows — so one look-up links agent run, journal and target object.
 */
package dev.toolgate.trace;

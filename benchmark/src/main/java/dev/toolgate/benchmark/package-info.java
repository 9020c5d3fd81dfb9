/**
 * A benchmark of the gateway against its two natural bounds, measured side by side in one run so
 * the noise of a shared machine falls on all of them alike: the direct call to the target (what the
 * gateway adds) and the database executing the gateway's own statements (what the gateway could reach).
 */
package dev.toolgate.benchmark;

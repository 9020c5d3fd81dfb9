/**
 * A benchmark of the gateway against its floors, measured side by side in one run so the noise of a
 * shared machine falls on all of them alike: the direct call to the target (what the gateway adds to),
 * the same server without the gateway (floor.war: an empty endpoint and one primary-key read), and the
 * database executing the gateway's own statements (what the gateway could reach). Each figure comes
 * with the CPU each process spent and the statements and commits the journal saw, per operation.
 */
package dev.toolgate.benchmark;

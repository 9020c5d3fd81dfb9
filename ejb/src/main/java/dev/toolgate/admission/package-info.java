/**
 * How many agents' calls do the gateway's own work at once ({@link dev.toolgate.admission.WorkPermits}): taken by the
 * gateway, given back by the target registry and the loop; it imports nothing of the project.
 */
package dev.toolgate.admission;

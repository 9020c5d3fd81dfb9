/**
 * Endpoints deployed only by the benchmark, into the same Payara Micro as the gateway and never into
 * its WAR or EAR: what the server costs with nothing of the gateway in the path ({@code FloorWar} packs them).
 */
package dev.toolgate.benchmark.floor;

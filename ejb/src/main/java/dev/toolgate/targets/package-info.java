/**
 * The target SPI: adapters carry an operation to the business system that creates its effect, passing our key down
 * so the system can deduplicate, and look the effect up by that key. Only an adapter knows its system's field names
 * and error shapes; this package imports none of them ({@code targets.registry} builds them).
 */
package dev.toolgate.targets;

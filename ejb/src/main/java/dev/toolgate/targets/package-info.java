/**
 * The target SPI: adapters that carry an operation to the business system that creates its
 * effect, passing our key down so the system can deduplicate, and look the effect up by that key.
 *
 * <p>Adapters translate at the edge: only an adapter knows its system's field names, error
 * shapes and status codes; everything else speaks {@link dev.toolgate.targets.Outcome} and
 * {@link dev.toolgate.targets.Lookup}. This package is the contract the adapters implement and import; it imports
 * none of them (the registry that builds them is {@code targets.registry}).
 */
package dev.toolgate.targets;

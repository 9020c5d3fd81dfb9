/**
 * The target SPI: adapters that carry an operation to the business system that creates its
 * effect, passing our key down so the system can deduplicate, and look the effect up by that key.
 *
 * <p>Adapters translate at the edge: only an adapter knows its system's field names, error
 * shapes and status codes; everything else speaks {@link dev.toolgate.target.Outcome} and
 * {@link dev.toolgate.target.Lookup}.
 */
package dev.toolgate.target;

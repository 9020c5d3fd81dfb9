/**
 * Builds each configured system's adapter and is the one way to call them. It imports the contract
 * ({@code targets}) and every adapter package; the contract and the adapters import nothing of it.
 */
package dev.toolgate.targets.registry;

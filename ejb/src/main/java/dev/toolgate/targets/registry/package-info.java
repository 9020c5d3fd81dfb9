/**
 * Every target this gateway reaches, built once from configuration, and the one way to call them: the registry picks
 * each system's adapter, keeps an adapter's exception from escaping as anything but an outcome, and refuses a call
 * made inside a database transaction. It imports the contract ({@code targets}) and every adapter package; the
 * contract and the adapters import nothing of it.
 */
package dev.toolgate.targets.registry;

/** The connection to each target: TLS to the targets, their own client SDKs against the simulators, the generic HTTP adapter. */
package dev.toolgate.it.targets;

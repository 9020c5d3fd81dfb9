/**
 * The local stack: embedded PostgreSQL, the simulators and the gateway on Payara Micro, each in its
 * own process so a test can kill the gateway and keep the database and the targets' state.
 */
package dev.toolgate.launcher;

/**
 * Workarounds for the servers the gateway runs on, each in one class with why it is needed and the suite that
 * shows it still is. Domain packages use what these offer and never reach into a server themselves.
 */
package dev.toolgate.platform;

/**
 * Server and driver workarounds, in one place: each class says why and names the test that shows it is still needed,
 * so the capabilities stay free of reflection and of any one server's classes.
 */
package dev.toolgate.platform;

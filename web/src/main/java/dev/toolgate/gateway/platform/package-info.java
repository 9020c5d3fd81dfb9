/**
 * Where the web module works around the servers, in one place: each class here says why and names the test that
 * shows it is still needed, so the edge and the doors stay free of reflection and of any one server's classes.
 */
package dev.toolgate.gateway.platform;

/**
 * Where the web module works around the servers, in one place: each class here exists because a server does
 * something the Servlet and JAX-RS standards leave open, says why, and names the test that shows it is still
 * needed. The edge and the doors call these classes and stay free of reflection and of any one server's classes;
 * this package imports none of them.
 */
package dev.toolgate.gateway.platform;

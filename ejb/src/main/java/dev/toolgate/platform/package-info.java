/**
 * Where the servers and the PostgreSQL driver are worked around, in one place: each class here exists because a
 * server or the driver does something the standard leaves open, says why, and names the test that shows it is still
 * needed. The capabilities call these classes and stay free of reflection and of any one server's classes; this
 * package imports none of them.
 */
package dev.toolgate.platform;

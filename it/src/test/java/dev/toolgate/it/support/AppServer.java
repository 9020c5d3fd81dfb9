package dev.toolgate.it.support;


import java.nio.file.Path;

/** An application server the EAR is deployed to by the suite: Payara Server or WildFly. */
public interface AppServer extends AutoCloseable {

    /** Where the deployed EAR answers. */
    String baseUrl();

    /** The server's own log file (not its console). */
    Path serverLog();
}

package dev.toolgate.it;

import java.nio.file.Path;

/** An application server the EAR is deployed to by the suite: Payara Server or WildFly. */
interface AppServer extends AutoCloseable {

    /** Where the deployed EAR answers. */
    String baseUrl();

    /** The server's own log file (not its console). */
    Path serverLog();
}

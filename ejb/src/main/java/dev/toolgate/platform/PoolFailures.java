package dev.toolgate.platform;

import java.util.Set;

/**
 * A server's connection pool giving up: a Jakarta Connectors {@code ResourceException} (WildFly's IronJacamar) or
 * Payara's {@code PoolingException}, known by name since the application may not see the servers' classes.
 * {@code PoolFailuresTest} pins the names; {@code DatabaseOutageIT} (it) runs the outages in which Payara Micro's pool
 * may give up before the driver does.
 */
public final class PoolFailures {

    private static final Set<String> NAMES = Set.of("jakarta.resource.ResourceException",
            "jakarta.resource.spi.ResourceAllocationException", "com.sun.appserv.connectors.internal.api.PoolingException");

    private PoolFailures() {
    }

    /** True when {@code failure} itself (not its causes) is a pool's refusal to hand out a connection. */
    public static boolean is(Throwable failure) {
        for (Class<?> type = failure.getClass(); type != null; type = type.getSuperclass()) {
            if (NAMES.contains(type.getName())) {
                return true;
            }
        }
        return false;
    }
}

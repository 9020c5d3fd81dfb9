package dev.toolgate.platform;

import java.util.Set;

/**
 * A server pool giving up (IronJacamar's {@code ResourceException}, Payara's {@code PoolingException}), known by name:
 * the application may not see the servers' classes. Still needed: {@code DatabaseOutageIT}; names pinned by {@code PoolFailuresTest}.
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

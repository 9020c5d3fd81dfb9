package dev.toolgate.platform;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Map;
import java.util.logging.LogManager;

/**
 * The JBoss Logging MDC, filled for one log call: WildFly's {@code json-formatter} prints it as fields. Looked up
 * reflectively and only under JBoss LogManager (Payara has the classes for Weld, but nothing reads them). Still
 * needed: {@code EarOnWildFlyIT}.
 */
public final class JBossMdc {

    private static final boolean JBOSS_LOG_MANAGER = LogManager.getLogManager().getClass().getName().startsWith("org.jboss.logmanager.");
    private static final MethodHandle MDC_PUT = JBOSS_LOG_MANAGER
            ? mdc("put", MethodType.methodType(Object.class, String.class, Object.class)) : null;
    private static final MethodHandle MDC_REMOVE = JBOSS_LOG_MANAGER
            ? mdc("remove", MethodType.methodType(void.class, String.class)) : null;

    private JBossMdc() {
    }

    public static void put(Map<String, String> fields) {
        if (MDC_PUT != null) {
            fields.forEach((name, value) -> {
                if (value != null) {
                    invoke(MDC_PUT, name, value);
                }
            });
        }
    }

    public static void remove(Map<String, String> fields) {
        if (MDC_REMOVE != null) {
            fields.keySet().forEach(name -> invoke(MDC_REMOVE, name, null));
        }
    }

    private static void invoke(MethodHandle handle, String name, String value) {
        try {
            if (value == null) {
                handle.invoke(name);
            } else {
                handle.invoke(name, (Object) value);
            }
        } catch (Throwable e) {
            // the MDC is a convenience of one server's JSON format; a failure must not cost the log line
        }
    }

    private static MethodHandle mdc(String name, MethodType type) {
        try {
            Class<?> mdc = Class.forName("org.jboss.logging.MDC", false, JBossMdc.class.getClassLoader());
            return MethodHandles.publicLookup().findStatic(mdc, name, type);
        } catch (ReflectiveOperationException | LinkageError absent) {
            return null; // not WildFly: Payara's formatter reads the Map parameter instead
        }
    }
}

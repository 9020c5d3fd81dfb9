package dev.toolgate.gateway.platform;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The status line of the server's own response, where a reason phrase can be put: Servlet 6 has no way to set one,
 * and each server writes its own (Payara's Grizzly {@code 422 CUSTOM}, WildFly's Undertow the names of superseded
 * RFCs). Undertow's exchange and Grizzly's response packet behind Payara's facade take a phrase; those are the
 * servers' classes, not the application's to import, so they are found by their shape, once per response class.
 *
 * <p>{@code StatusLinesIT} (it) reads the raw status lines Payara Micro sends, {@code EarSuite} those of both EAR
 * servers; {@code ServerStatusLinesTest} pins the two shapes.
 */
public final class ServerStatusLines {

    private static final Logger LOG = Logger.getLogger(ServerStatusLines.class.getName());
    /**
     * How to reach each server response class, found once. A map of the application's own, not a ClassValue: a
     * ClassValue's entry on the server's class, holding a lambda of the application's, would keep the application's
     * class loader alive after it is undeployed.
     */
    private static final Map<Class<?>, Phrasing> PHRASING = new ConcurrentHashMap<>();
    private static final Phrasing NONE = (response, phrase) -> {
    };

    private ServerStatusLines() {
    }

    /** Puts a phrase on a server's own response, reached from the servlet response it gave the application. */
    @FunctionalInterface
    public interface Phrasing {
        /** {@code phrase} null: the server's own. */
        void set(Object servletResponse, String phrase) throws ReflectiveOperationException;
    }

    /** How to phrase responses of {@code type}; none on a server of another shape, where the status code is right either way. */
    public static Optional<Phrasing> of(Class<?> type) {
        Phrasing phrasing = PHRASING.computeIfAbsent(type, ServerStatusLines::find);
        return phrasing == NONE ? Optional.empty() : Optional.of(phrasing);
    }

    static Phrasing find(Class<?> type) {
        try {
            Method exchange = type.getMethod("getExchange"); // Undertow's HttpServletResponseImpl
            Method setter = exchange.getReturnType().getMethod("setReasonPhrase", String.class);
            return (response, phrase) -> setter.invoke(exchange.invoke(response), phrase);
        } catch (NoSuchMethodException notUndertow) {
        }
        Field inner = field(type, "response"); // Payara's ResponseFacade → its connector Response
        if (inner != null) {
            try {
                inner.setAccessible(true);
                Method coyote = inner.getType().getMethod("getCoyoteResponse"); // → Grizzly's server Response
                Method packet = coyote.getReturnType().getMethod("getResponse"); // → its HttpResponsePacket
                Method setter = packet.getReturnType().getMethod("setReasonPhrase", String.class);
                // none: the phrase's chunk emptied, so the packet writes its status's own (a null string would be written)
                Method chunk = packet.getReturnType().getMethod("getReasonPhraseRawDC");
                Method empty = chunk.getReturnType().getMethod("recycle");
                return (response, phrase) -> {
                    Object line = packet.invoke(coyote.invoke(inner.get(response)));
                    if (phrase == null) {
                        empty.invoke(chunk.invoke(line));
                    } else {
                        setter.invoke(line, phrase);
                    }
                };
            } catch (NoSuchMethodException | RuntimeException notPayara) {
                LOG.log(Level.FINE, "status lines: " + type.getName() + " has a response field of another shape", notPayara);
            }
        }
        LOG.fine(() -> "status lines: no way to set a reason phrase on " + type.getName() + "; the server's own are sent");
        return NONE;
    }

    private static Field field(Class<?> type, String name) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            try {
                return c.getDeclaredField(name);
            } catch (NoSuchFieldException e) {
                // the superclass may hold it
            }
        }
        return null;
    }
}

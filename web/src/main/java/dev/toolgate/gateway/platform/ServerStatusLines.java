package dev.toolgate.gateway.platform;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Puts a reason phrase on the server's own status line: Servlet 6 cannot set one, and each server writes its own
 * (Grizzly {@code 422 CUSTOM}, Undertow superseded RFC names). The server classes that take a phrase are not the
 * application's to import, so they are found by shape, once per response class. Still needed: {@code StatusLinesIT},
 * {@code EarSuite}; {@code ServerStatusLinesTest} pins the two shapes.
 */
public final class ServerStatusLines {

    private static final Logger LOG = Logger.getLogger(ServerStatusLines.class.getName());
    /** Not a ClassValue: its entry on a server class, holding our lambda, would keep our class loader alive after undeploy. */
    private static final Map<Class<?>, Phrasing> PHRASING = new ConcurrentHashMap<>();
    private static final Phrasing NONE = (response, phrase) -> {
    };

    private ServerStatusLines() {
    }

    @FunctionalInterface
    public interface Phrasing {
        /** {@code phrase} null: the server's own. */
        void set(Object servletResponse, String phrase) throws ReflectiveOperationException;
    }

    /** None on a server of another shape, where the status code is right either way. */
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

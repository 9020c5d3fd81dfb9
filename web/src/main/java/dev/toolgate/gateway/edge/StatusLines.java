package dev.toolgate.gateway.edge;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Status lines with their registered reason phrases ({@link ReasonPhrases}) on every server. Servlet 6 has no way to
 * set a reason phrase, and each server writes its own: Payara's HTTP layer (Grizzly) writes {@code 422 CUSTOM} and
 * {@code 429 CUSTOM} for the codes it has no name for, WildFly's (Undertow) the names of superseded RFCs
 * ({@code 422 Unprocessable Entity}). Clients read the code, but people read {@code curl -i} and proxies log the line.
 *
 * <p>So {@link InputEdge} hands every door a response that, each time a status is set on it, puts the registered phrase
 * on the server's own response object: Undertow's exchange ({@code getExchange().setReasonPhrase}), or Grizzly's response
 * packet behind Payara's facade ({@code response.getCoyoteResponse().getResponse().setReasonPhrase}). Those are the
 * servers' classes, not the application's to import, so they are found by their shape, once per response class. On a
 * server with neither nothing is changed: the status code is right either way.
 */
public final class StatusLines {

    private static final Logger LOG = Logger.getLogger(StatusLines.class.getName());
    /**
     * How to reach each server response class, found once. A map of the application's own, not a ClassValue: a
     * ClassValue's entry on the server's class, holding a lambda of the application's, would keep the application's
     * class loader alive after it is undeployed.
     */
    private static final Map<Class<?>, Phrasing> PHRASING = new ConcurrentHashMap<>();

    private StatusLines() {
    }

    /** {@code response}, as every door should write to it: setting a status also sets its registered phrase. */
    public static HttpServletResponse phrased(HttpServletResponse response) {
        Phrasing phrasing = PHRASING.computeIfAbsent(response.getClass(), Phrasing::find);
        return phrasing == Phrasing.NONE ? response : new Phrased(response, phrasing);
    }

    /** Puts a phrase on a server's own response, reached from the servlet response it gave the application. */
    @FunctionalInterface
    interface Phrasing {
        Phrasing NONE = (response, phrase) -> {
        };

        /** {@code phrase} null: the server's own. */
        void set(Object servletResponse, String phrase) throws ReflectiveOperationException;

        static Phrasing find(Class<?> type) {
            try {
                Method exchange = type.getMethod("getExchange"); // Undertow's HttpServletResponseImpl
                Method setter = exchange.getReturnType().getMethod("setReasonPhrase", String.class);
                return (response, phrase) -> setter.invoke(exchange.invoke(response), phrase);
            } catch (NoSuchMethodException notUndertow) {
                // next shape
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

    /**
     * Sets the phrase after each status the doors set. Neither server forgets a phrase when the status changes, so each
     * change this sees sets one: the registered phrase, or none (the server's own) for an unassigned code, after a
     * reset, a redirect, or an exception on its way to the server's error page ({@link #forget}).
     */
    static final class Phrased extends HttpServletResponseWrapper {

        private final HttpServletResponse server;
        private final Phrasing phrasing;

        Phrased(HttpServletResponse server, Phrasing phrasing) {
            super(server);
            this.server = server;
            this.phrasing = phrasing;
        }

        @Override
        public void setStatus(int status) {
            super.setStatus(status);
            phrase(status);
        }

        @Override
        public void sendError(int status) throws IOException {
            super.sendError(status);
            phrase(status);
        }

        @Override
        public void sendError(int status, String message) throws IOException {
            super.sendError(status, message);
            phrase(status);
        }

        @Override
        public void sendRedirect(String location) throws IOException {
            super.sendRedirect(location);
            forget();
        }

        @Override
        public void reset() {
            super.reset();
            forget();
        }

        /** The server's own phrase again, for a status set where this does not see it. */
        void forget() {
            set(null);
        }

        private void phrase(int status) {
            set(ReasonPhrases.of(status).orElse(null));
        }

        private void set(String phrase) {
            if (server.isCommitted()) {
                return; // the status line is gone already
            }
            try {
                phrasing.set(server, phrase);
            } catch (ReflectiveOperationException | RuntimeException e) { // the line keeps the server's phrase
                LOG.log(Level.FINE, "status lines: could not set the reason phrase", e);
            }
        }
    }
}

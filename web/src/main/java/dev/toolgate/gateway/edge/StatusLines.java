package dev.toolgate.gateway.edge;

import dev.toolgate.gateway.platform.ServerStatusLines;
import dev.toolgate.gateway.platform.ServerStatusLines.Phrasing;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import java.io.IOException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Registered reason phrases ({@link ReasonPhrases}) on every server's status line: clients read the code, but people
 * read {@code curl -i} and proxies log the line.
 */
public final class StatusLines {

    private static final Logger LOG = Logger.getLogger(StatusLines.class.getName());

    private StatusLines() {
    }

    /** {@code response}, as every door should write to it: setting a status also sets its registered phrase. */
    public static HttpServletResponse phrased(HttpServletResponse response) {
        return ServerStatusLines.of(response.getClass()).<HttpServletResponse>map(phrasing -> new Phrased(response, phrasing))
                .orElse(response);
    }

    /**
     * Neither server forgets a phrase when the status changes, so each change sets one: the registered phrase, or the
     * server's own after an unassigned code, a reset, a redirect, or an exception ({@link #forget}).
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

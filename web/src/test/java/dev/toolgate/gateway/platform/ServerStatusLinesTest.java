package dev.toolgate.gateway.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.util.Optional;

/** How a phrase reaches each server's own response, by the shape of its classes. */
class ServerStatusLinesTest {

    /** Undertow's shape: the servlet response gives its exchange, which takes a phrase. */
    public static final class Exchange {
        String phrase;

        public void setReasonPhrase(String phrase) {
            this.phrase = phrase;
        }
    }

    public static final class UndertowLike {
        final Exchange exchange = new Exchange();

        public Exchange getExchange() {
            return exchange;
        }
    }

    /** Payara's shape: a facade over the connector's response, over Grizzly's, over its packet. */
    public static final class Packet {
        String phrase;

        public void setReasonPhrase(String phrase) {
            this.phrase = phrase;
        }

        public Chunk getReasonPhraseRawDC() {
            return new Chunk(this);
        }
    }

    public static final class Chunk {
        private final Packet packet;

        Chunk(Packet packet) {
            this.packet = packet;
        }

        public void recycle() {
            packet.phrase = "(the status's own)";
        }
    }

    public static final class GrizzlyResponse {
        final Packet packet = new Packet();

        public Packet getResponse() {
            return packet;
        }
    }

    public static final class ConnectorResponse {
        final GrizzlyResponse grizzly = new GrizzlyResponse();

        public GrizzlyResponse getCoyoteResponse() {
            return grizzly;
        }
    }

    static class FacadeBase {
        protected ConnectorResponse response = new ConnectorResponse(); // protected, as in the server
    }

    static final class PayaraLike extends FacadeBase {
    }

    @Test
    void reachesUndertowsExchange() throws Exception {
        UndertowLike response = new UndertowLike();
        ServerStatusLines.find(UndertowLike.class).set(response, "Unprocessable Content");
        assertEquals("Unprocessable Content", response.exchange.phrase);
    }

    @Test
    void reachesGrizzlysPacketBehindPayarasFacadeThroughAnInheritedField() throws Exception {
        PayaraLike response = new PayaraLike();
        ServerStatusLines.find(PayaraLike.class).set(response, "Too Many Requests");
        assertEquals("Too Many Requests", response.response.grizzly.packet.phrase);
        ServerStatusLines.find(PayaraLike.class).set(response, null);
        assertEquals("(the status's own)", response.response.grizzly.packet.phrase, "emptied, never a null string");
    }

    @Test
    void leavesAServerOfAnotherShapeAsItIs() {
        assertEquals(Optional.empty(), ServerStatusLines.of(String.class));
    }
}

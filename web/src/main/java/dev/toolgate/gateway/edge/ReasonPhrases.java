package dev.toolgate.gateway.edge;

import java.util.Map;
import java.util.Optional;

/**
 * The registered reason phrase of each HTTP status (RFC 9110 §15 and the IANA status code registry), which every
 * status line the gateway sends carries, whatever server it runs on ({@link StatusLines}).
 */
public final class ReasonPhrases {

    private static final Map<Integer, String> REGISTERED = Map.ofEntries(
            Map.entry(100, "Continue"), Map.entry(101, "Switching Protocols"),
            Map.entry(200, "OK"), Map.entry(201, "Created"), Map.entry(202, "Accepted"),
            Map.entry(203, "Non-Authoritative Information"), Map.entry(204, "No Content"), Map.entry(205, "Reset Content"),
            Map.entry(206, "Partial Content"),
            Map.entry(300, "Multiple Choices"), Map.entry(301, "Moved Permanently"), Map.entry(302, "Found"),
            Map.entry(303, "See Other"), Map.entry(304, "Not Modified"), Map.entry(305, "Use Proxy"),
            Map.entry(307, "Temporary Redirect"), Map.entry(308, "Permanent Redirect"),
            Map.entry(400, "Bad Request"), Map.entry(401, "Unauthorized"), Map.entry(402, "Payment Required"),
            Map.entry(403, "Forbidden"), Map.entry(404, "Not Found"), Map.entry(405, "Method Not Allowed"),
            Map.entry(406, "Not Acceptable"), Map.entry(407, "Proxy Authentication Required"), Map.entry(408, "Request Timeout"),
            Map.entry(409, "Conflict"), Map.entry(410, "Gone"), Map.entry(411, "Length Required"),
            Map.entry(412, "Precondition Failed"), Map.entry(413, "Content Too Large"), Map.entry(414, "URI Too Long"),
            Map.entry(415, "Unsupported Media Type"), Map.entry(416, "Range Not Satisfiable"), Map.entry(417, "Expectation Failed"),
            Map.entry(421, "Misdirected Request"), Map.entry(422, "Unprocessable Content"), Map.entry(425, "Too Early"),
            Map.entry(426, "Upgrade Required"), Map.entry(428, "Precondition Required"), Map.entry(429, "Too Many Requests"),
            Map.entry(431, "Request Header Fields Too Large"), Map.entry(451, "Unavailable For Legal Reasons"),
            Map.entry(500, "Internal Server Error"), Map.entry(501, "Not Implemented"), Map.entry(502, "Bad Gateway"),
            Map.entry(503, "Service Unavailable"), Map.entry(504, "Gateway Timeout"), Map.entry(505, "HTTP Version Not Supported"),
            Map.entry(511, "Network Authentication Required"));

    private ReasonPhrases() {
    }

    /** The registered phrase, or none for a code the registry leaves unassigned. */
    public static Optional<String> of(int status) {
        return Optional.ofNullable(REGISTERED.get(status));
    }
}

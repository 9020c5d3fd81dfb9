package dev.toolgate.trace;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The W3C {@code traceparent} header: {@code <version>-<trace-id>-<parent-id>-<flags>}. */
public final class TraceParent {

    public static final String HEADER = "traceparent";

    private static final Pattern FORMAT = Pattern.compile("([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?");
    private static final SecureRandom RANDOM = new SecureRandom();

    private TraceParent() {
    }

    /** Empty for a malformed header, which the spec says to treat as absent rather than refuse. */
    public static Optional<String> traceId(String header) {
        if (header == null) {
            return Optional.empty();
        }
        Matcher m = FORMAT.matcher(header.trim().toLowerCase(Locale.ROOT));
        if (!m.matches() || m.group(1).equals("ff") || (m.group(1).equals("00") && m.group(5) != null)
                || m.group(2).chars().allMatch(c -> c == '0') || m.group(3).chars().allMatch(c -> c == '0')) {
            return Optional.empty();
        }
        return Optional.of(m.group(2));
    }

    public static String newTraceId() {
        return random(16);
    }

    /** A span id of our own, never recorded as a span: what a header names while tracing is off. */
    public static String newSpanId() {
        return random(8);
    }

    /** A header for a call we make within {@code traceId}: a new span of ours, sampled. */
    public static String outgoing(String traceId) {
        return "00-" + traceId + "-" + newSpanId() + "-01";
    }

    private static String random(int bytes) {
        byte[] b = new byte[bytes];
        do {
            RANDOM.nextBytes(b);
        } while (allZero(b));
        return HexFormat.of().formatHex(b);
    }

    private static boolean allZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }
}

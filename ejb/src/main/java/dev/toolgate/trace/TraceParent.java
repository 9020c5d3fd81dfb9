package dev.toolgate.trace;

import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The W3C {@code traceparent} header: {@code <version>-<trace-id>-<parent-id>-<flags>}. */
public final class TraceParent {

    public static final String HEADER = "traceparent";

    private static final Pattern FORMAT = Pattern.compile("([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?");
    private static final HexFormat HEX = HexFormat.of();

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

    /**
     * Random, as W3C Trace Context asks, and unpredictable to nobody's harm: an id names a trace, it grants nothing (the
     * caller is told it in {@code traceresponse}). So a thread's own generator, as OpenTelemetry's SDK uses, not
     * {@code SecureRandom}, whose shared source every call of every thread would wait on.
     */
    public static String newTraceId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high;
        long low;
        do {
            high = random.nextLong();
            low = random.nextLong();
        } while (high == 0 && low == 0);
        return HEX.toHexDigits(high) + HEX.toHexDigits(low);
    }

    /** A span id of our own, never recorded as a span: what a header names while tracing is off. */
    public static String newSpanId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long id;
        do {
            id = random.nextLong();
        } while (id == 0);
        return HEX.toHexDigits(id);
    }

    /** A header for a call we make within {@code traceId}: a new span of ours, sampled. */
    public static String outgoing(String traceId) {
        return "00-" + traceId + "-" + newSpanId() + "-01";
    }
}

package dev.toolgate.trace;

import java.util.concurrent.atomic.LongAdder;

/**
 * What became of the spans the server's exporter was given: delivered, or dropped because the export
 * failed (the collector down, refusing, too slow). A batch the SDK could not deliver is not sent again, so
 * a failed export is a drop; the gateway's calls never wait for either ({@code /api/metrics} shows both).
 */
public final class SpanExports {

    private static final LongAdder EXPORTED = new LongAdder();
    private static final LongAdder DROPPED = new LongAdder();

    private SpanExports() {
    }

    static void exported(int spans) {
        EXPORTED.add(spans);
    }

    static void dropped(int spans) {
        DROPPED.add(spans);
    }

    public static long exported() {
        return EXPORTED.sum();
    }

    public static long dropped() {
        return DROPPED.sum();
    }
}

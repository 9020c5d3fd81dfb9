package dev.toolgate.trace;

import java.util.concurrent.atomic.LongAdder;

/** Spans delivered or dropped: a batch the SDK could not deliver is not sent again; calls never wait for either. */
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

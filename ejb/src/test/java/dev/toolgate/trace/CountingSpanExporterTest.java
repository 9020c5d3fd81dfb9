package dev.toolgate.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.junit.jupiter.api.Test;

import java.util.Collection;
import java.util.Collections;
import java.util.List;

/** Delivered and dropped spans are counted by what the server's exporter reports, however it reports it. */
class CountingSpanExporterTest {

    @Test
    void aDeliveredBatchCountsAsExportedAFailedOneAsDroppedAndOneThatThrowsAsDroppedToo() {
        long exported = SpanExports.exported();
        long dropped = SpanExports.dropped();
        List<SpanData> three = Collections.nCopies(3, null);

        new CountingSpanExporter(answering(CompletableResultCode.ofSuccess())).export(three);
        new CountingSpanExporter(answering(CompletableResultCode.ofFailure())).export(three.subList(0, 2));
        CompletableResultCode thrown = new CountingSpanExporter(new Answering(null) {
            @Override
            public CompletableResultCode export(Collection<SpanData> spans) {
                throw new IllegalStateException("collector unreachable");
            }
        }).export(three.subList(0, 1));

        assertEquals(exported + 3, SpanExports.exported());
        assertEquals(dropped + 3, SpanExports.dropped());
        assertFalse(thrown.isSuccess());
    }

    @Test
    void anExportStillUnderWayIsCountedWhenItEnds() {
        long dropped = SpanExports.dropped();
        CompletableResultCode later = new CompletableResultCode();
        new CountingSpanExporter(answering(later)).export(Collections.nCopies(5, null));
        assertEquals(dropped, SpanExports.dropped());
        later.fail();
        assertEquals(dropped + 5, SpanExports.dropped());
    }

    @Test
    void afterAFailureTheCollectorIsLeftAloneForAPauseThatDoublesAndASuccessEndsIt() {
        long[] now = {0};
        int[] attempts = {0};
        CompletableResultCode[] next = {CompletableResultCode.ofFailure()};
        CountingSpanExporter exporter = new CountingSpanExporter(new Answering(null) {
            @Override
            public CompletableResultCode export(Collection<SpanData> spans) {
                attempts[0]++;
                return next[0];
            }
        }, () -> now[0]);
        List<SpanData> one = Collections.nCopies(1, null);
        long dropped = SpanExports.dropped();

        exporter.export(one);                       // fails: a pause of 1 s
        assertFalse(exporter.export(one).isSuccess()); // within it: dropped without an attempt
        assertEquals(1, attempts[0]);
        now[0] += 1_000_000_000L;
        exporter.export(one);                       // tried again, fails: 2 s
        now[0] += 1_500_000_000L;
        exporter.export(one);
        assertEquals(2, attempts[0], "still within the longer pause");
        now[0] += 500_000_000L;
        next[0] = CompletableResultCode.ofSuccess();
        assertTrue(exporter.export(one).isSuccess());
        assertTrue(exporter.export(one).isSuccess(), "a success ends the pauses");
        assertEquals(4, attempts[0]);
        assertEquals(dropped + 4, SpanExports.dropped());
    }

    @Test
    void thePauseDoublesUpToHalfAMinute() {
        ExportBackoff backoff = ExportBackoff.none();
        assertEquals(java.time.Duration.ZERO, backoff.pause());
        List<Long> seconds = new java.util.ArrayList<>();
        for (int i = 0; i < 8; i++) {
            backoff = backoff.failed();
            seconds.add(backoff.pause().toSeconds());
        }
        assertEquals(List.of(1L, 2L, 4L, 8L, 16L, 30L, 30L, 30L), seconds);
    }

    private static SpanExporter answering(CompletableResultCode result) {
        return new Answering(result);
    }

    private static class Answering implements SpanExporter {
        private final CompletableResultCode result;

        Answering(CompletableResultCode result) {
            this.result = result;
        }

        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            return result;
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }
}

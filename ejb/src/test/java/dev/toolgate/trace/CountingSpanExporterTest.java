package dev.toolgate.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

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

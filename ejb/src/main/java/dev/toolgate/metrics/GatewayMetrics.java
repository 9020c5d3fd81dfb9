package dev.toolgate.metrics;

import dev.toolgate.trace.SpanExports;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

@ApplicationScoped
public class GatewayMetrics {

    /** Upper bounds of the target-call latency buckets, in seconds. */
    static final double[] BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};

    private final Map<Series, LongAdder> counters = new ConcurrentHashMap<>();
    private final Map<String, Histogram> latencies = new ConcurrentHashMap<>();

    /** A request's capture decision: {@code execute}, {@code replay}, {@code key_reused}, {@code in_progress}, … */
    public void captured(String decision) {
        count("toolgate_captures_total", "decision", decision);
    }

    public void targetCall(String target, String errorClass, long millis) {
        count("toolgate_target_calls_total", "target", target, "error_class", errorClass == null ? "none" : errorClass);
        latencies.computeIfAbsent(target, t -> new Histogram()).observe(millis / 1000.0);
    }

    /** An outcome written for an attempt; {@code status} is the journal status it moved to. */
    public void outcome(String target, String status) {
        count("toolgate_outcomes_total", "target", target, "status", status);
    }

    public void reconciled(String target, String outcome) {
        count("toolgate_reconciled_total", "target", target, "outcome", outcome);
    }

    /** A target's notification and what came of it: accepted, refused_source, settled, busy, looked_up_found, … */
    public void notification(String target, String outcome) {
        count("toolgate_notifications_total", "target", target, "outcome", outcome);
    }

    public void escalated(String target) {
        count("toolgate_escalations_total", "target", target);
    }

    private void count(String name, String... labels) {
        counters.computeIfAbsent(new Series(name, labels(labels)), s -> new LongAdder()).increment();
    }

    private static String labels(String... pairs) {
        StringBuilder text = new StringBuilder("{");
        for (int i = 0; i < pairs.length; i += 2) {
            text.append(i == 0 ? "" : ",").append(pairs[i]).append("=\"").append(escape(pairs[i + 1])).append('"');
        }
        return text.append('}').toString();
    }

    private static String escape(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    /** The counters and histograms in the Prometheus text exposition format (version 0.0.4). */
    public void write(StringBuilder out) {
        help(out, "toolgate_captures_total", "counter", "Agent requests by capture decision (execute, replay, key_reused, in_progress, ...)");
        help(out, "toolgate_target_calls_total", "counter", "Calls to targets by error class: retry, reconcile_before_retry, wait_pending, never_retry (none: succeeded)");
        help(out, "toolgate_outcomes_total", "counter", "Outcomes written, by the journal status they moved the operation to");
        help(out, "toolgate_reconciled_total", "counter", "Look-ups by key, by what they found");
        help(out, "toolgate_escalations_total", "counter", "Operations escalated to a person");
        counters.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> out.append(e.getKey().name()).append(e.getKey().labels()).append(' ').append(e.getValue().sum()).append('\n'));
        out.append("# HELP toolgate_target_call_seconds Latency of calls to targets\n# TYPE toolgate_target_call_seconds histogram\n");
        latencies.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> e.getValue().write(out, e.getKey()));
        help(out, "toolgate_trace_spans_exported_total", "counter", "Spans the server's OpenTelemetry exporter delivered (0 while tracing is off)");
        out.append("toolgate_trace_spans_exported_total ").append(SpanExports.exported()).append('\n');
        help(out, "toolgate_trace_spans_dropped_total", "counter", "Spans lost because their export failed; the calls they describe were not slowed");
        out.append("toolgate_trace_spans_dropped_total ").append(SpanExports.dropped()).append('\n');
    }

    private static void help(StringBuilder out, String name, String type, String help) {
        out.append("# HELP ").append(name).append(' ').append(help).append("\n# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private record Series(String name, String labels) implements Comparable<Series> {
        @Override
        public int compareTo(Series other) {
            int byName = name.compareTo(other.name);
            return byName != 0 ? byName : labels.compareTo(other.labels);
        }
    }

    private static final class Histogram {
        private final LongAdder[] buckets = new LongAdder[BUCKETS.length];
        private final LongAdder count = new LongAdder();
        private final java.util.concurrent.atomic.DoubleAdder sum = new java.util.concurrent.atomic.DoubleAdder();

        Histogram() {
            for (int i = 0; i < buckets.length; i++) {
                buckets[i] = new LongAdder();
            }
        }

        void observe(double seconds) {
            for (int i = 0; i < BUCKETS.length; i++) {
                if (seconds <= BUCKETS[i]) {
                    buckets[i].increment();
                }
            }
            count.increment();
            sum.add(seconds);
        }

        void write(StringBuilder out, String target) {
            for (int i = 0; i < BUCKETS.length; i++) {
                out.append("toolgate_target_call_seconds_bucket{target=\"").append(escape(target)).append("\",le=\"")
                        .append(String.format(Locale.ROOT, "%s", BUCKETS[i])).append("\"} ").append(buckets[i].sum()).append('\n');
            }
            out.append("toolgate_target_call_seconds_bucket{target=\"").append(escape(target)).append("\",le=\"+Inf\"} ")
                    .append(count.sum()).append('\n');
            out.append("toolgate_target_call_seconds_sum{target=\"").append(escape(target)).append("\"} ")
                    .append(String.format(Locale.ROOT, "%.6f", sum.sum())).append('\n');
            out.append("toolgate_target_call_seconds_count{target=\"").append(escape(target)).append("\"} ").append(count.sum()).append('\n');
        }
    }
}

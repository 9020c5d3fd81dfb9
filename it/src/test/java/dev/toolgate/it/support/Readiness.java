package dev.toolgate.it.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A gateway's readiness probe polled as an orchestrator would, no credentials, to time how soon it is UP again. */
public final class Readiness {

    /** How soon a gateway is ready after the journal's PostgreSQL accepts connections again (docs/database-outage.md). */
    public static final Duration AFTER_A_RESTART = Duration.ofSeconds(5);
    /**
     * How long one probe may take meanwhile: the journal's connect timeout (2 s), the most a check of a connection
     * that cannot be reached may wait, and 2 s margin for a busy 2-core machine.
     */
    public static final Duration PROBE_BOUND = Duration.ofSeconds(2 + 2);

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private Readiness() {
    }

    /**
     * Polls {@code baseUrl}'s readiness every 100 ms from {@code since} (a {@link System#nanoTime}) until it is UP,
     * for {@code within} at most.
     */
    public static Recovery upAfter(String baseUrl, long since, Duration within) throws InterruptedException {
        List<Integer> seen = new ArrayList<>();
        long slowest = 0;
        long deadline = since + within.toNanos();
        while (System.nanoTime() < deadline) {
            long sent = System.nanoTime();
            int status = probe(baseUrl);
            long answered = System.nanoTime();
            slowest = Math.max(slowest, (answered - sent) / 1_000_000);
            if (seen.isEmpty() || seen.get(seen.size() - 1) != status) {
                seen.add(status);
            }
            if (status == 200) {
                return new Recovery((answered - since) / 1_000_000, seen, slowest);
            }
            Thread.sleep(100);
        }
        return new Recovery(-1, seen, slowest);
    }

    /**
     * How a gateway came back: {@code readyAfterMillis} from the moment given to readiness UP (-1: not within the
     * wait), the probe's statuses in the order they changed (-1: no answer), the slowest probe's answer.
     */
    public record Recovery(long readyAfterMillis, List<Integer> statuses, long slowestProbeMillis) {

        /** UP within {@link #AFTER_A_RESTART}, no probe held past {@link #PROBE_BOUND}. */
        public void assertUpInTime() {
            if (readyAfterMillis < 0 || readyAfterMillis > AFTER_A_RESTART.toMillis()) {
                throw new AssertionError("readiness UP " + readyAfterMillis + " ms after PostgreSQL accepted connections (-1: not"
                        + " within the wait), bound " + AFTER_A_RESTART + "; statuses seen " + statuses);
            }
            if (slowestProbeMillis > PROBE_BOUND.toMillis()) {
                throw new AssertionError("a readiness probe took " + slowestProbeMillis + " ms, bound " + PROBE_BOUND);
            }
        }
    }

    /** Polls {@code baseUrl}'s readiness every 100 ms in the background from now until {@link Watch#stop}. */
    public static Watch watch(String baseUrl) {
        Watch watch = new Watch(baseUrl, System.nanoTime());
        watch.thread.start();
        return watch;
    }

    /** A readiness probe polled in the background, keeping each change of status and when it was seen. */
    public static final class Watch {
        private final long since;
        private final List<long[]> changes = new ArrayList<>(); // {millis since the start, status}
        private final Thread thread;
        private volatile boolean stopping;

        private Watch(String baseUrl, long since) {
            this.since = since;
            this.thread = new Thread(() -> {
                int last = 0;
                while (!stopping) {
                    try {
                        int status = probe(baseUrl);
                        if (status != last) {
                            synchronized (changes) {
                                changes.add(new long[] {(System.nanoTime() - since) / 1_000_000, status});
                            }
                            last = status;
                        }
                        Thread.sleep(100);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "readiness-watch");
            thread.setDaemon(true);
        }

        /** Stops polling; returns the changes seen, as "status@millis" from the start. */
        public List<String> stop() throws InterruptedException {
            stopping = true;
            thread.join(35_000);
            synchronized (changes) {
                List<String> seen = new ArrayList<>();
                for (long[] change : changes) {
                    seen.add(change[1] + "@" + change[0] + "ms");
                }
                return seen;
            }
        }

        /** From the first answer that was not UP to the first UP after it, in milliseconds; 0 if it never went down. */
        public long notReadyMillis() {
            synchronized (changes) {
                long down = -1;
                for (long[] change : changes) {
                    if (change[1] != 200 && down < 0) {
                        down = change[0];
                    } else if (change[1] == 200 && down >= 0) {
                        return change[0] - down;
                    }
                }
                return down < 0 ? 0 : -1;
            }
        }
    }

    private static int probe(String baseUrl) throws InterruptedException {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl + "/api/health/ready")).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException noAnswer) {
            return -1;
        }
    }
}

package dev.toolgate.search;

import dev.toolgate.journal.Journal;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The standing table ({@link Standing#of}) row by row: every status, escalated or not, with a lease that is
 * held, lapsed, ending exactly now or absent — and the labels the metric and the console's URLs use.
 */
class StandingTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    private static final Instant HELD = NOW.plusSeconds(30);
    private static final Instant LAPSED = NOW.minusSeconds(1);
    private static final Instant ESCALATED_AT = NOW.minusSeconds(600);

    @Test
    void anOperationAwaitingApprovalAwaitsItWhateverItsLeaseOrEscalation() {
        for (Instant lease : new Instant[] {null, HELD, LAPSED}) {
            assertEquals(Standing.AWAITING_APPROVAL, Standing.of(OperationStatus.PENDING_APPROVAL, false, null, lease, NOW));
            assertEquals(Standing.AWAITING_APPROVAL, Standing.of(OperationStatus.PENDING_APPROVAL, false, ESCALATED_AT, lease, NOW));
        }
    }

    @Test
    void anApprovedOperationWaitsForItsCallerWhateverItsLeaseOrEscalation() {
        for (Instant lease : new Instant[] {null, HELD, LAPSED}) {
            assertEquals(Standing.AWAITING_CALLER, Standing.of(OperationStatus.PENDING_APPROVAL, true, null, lease, NOW));
            assertEquals(Standing.AWAITING_CALLER, Standing.of(OperationStatus.PENDING_APPROVAL, true, ESCALATED_AT, lease, NOW));
        }
        assertEquals("pending_approval", Standing.AWAITING_CALLER.metricStatus(), "the metric does not split approval from its use");
    }

    @Test
    void aGrantedApprovalMattersOnlyWhileAwaitingIt() {
        for (OperationStatus status : OperationStatus.values()) {
            if (status != OperationStatus.PENDING_APPROVAL) {
                assertEquals(Standing.of(status, false, null, HELD, NOW), Standing.of(status, true, null, HELD, NOW), status.dbName());
            }
        }
    }

    @Test
    void aStartedOperationIsInFlightWhileItsLeaseIsHeld() {
        assertEquals(Standing.IN_FLIGHT, Standing.of(OperationStatus.STARTED, false, null, HELD, NOW));
        assertEquals(Standing.IN_FLIGHT, Standing.of(OperationStatus.STARTED, false, ESCALATED_AT, HELD, NOW), "escalation applies to unknowns only");
    }

    @Test
    void aStartedOperationWhoseLeaseLapsedOrIsMissingHasLapsed() {
        assertEquals(Standing.LEASE_LAPSED, Standing.of(OperationStatus.STARTED, false, null, LAPSED, NOW));
        assertEquals(Standing.LEASE_LAPSED, Standing.of(OperationStatus.STARTED, false, null, null, NOW));
        assertEquals(Standing.LEASE_LAPSED, Standing.of(OperationStatus.STARTED, false, ESCALATED_AT, LAPSED, NOW));
    }

    @Test
    void aLeaseEndingExactlyNowHasLapsed() {
        // the same boundary the search uses: lease_until > now is held, lease_until <= now is lapsed
        assertEquals(Standing.LEASE_LAPSED, Standing.of(OperationStatus.STARTED, false, null, NOW, NOW));
    }

    @Test
    void anUnknownOutcomeIsToBeLookedUpUntilEscalated() {
        for (Instant lease : new Instant[] {null, HELD, LAPSED}) {
            assertEquals(Standing.UNKNOWN, Standing.of(OperationStatus.UNKNOWN, false, null, lease, NOW));
            assertEquals(Standing.ESCALATED, Standing.of(OperationStatus.UNKNOWN, false, ESCALATED_AT, lease, NOW));
        }
    }

    @Test
    void aRetryableFailureWaitsForItsCaller() {
        for (Instant lease : new Instant[] {null, HELD, LAPSED}) {
            assertEquals(Standing.RETRY_WAITING, Standing.of(OperationStatus.FAILED_RETRYABLE, false, null, lease, NOW));
            assertEquals(Standing.RETRY_WAITING, Standing.of(OperationStatus.FAILED_RETRYABLE, false, ESCALATED_AT, lease, NOW));
        }
    }

    @Test
    void aFinishedOperationStandsAsItEndedEvenAfterAnEscalationWasResolved() {
        for (Instant lease : new Instant[] {null, HELD, LAPSED}) {
            assertEquals(Standing.SUCCEEDED, Standing.of(OperationStatus.SUCCEEDED, false, null, lease, NOW));
            assertEquals(Standing.SUCCEEDED, Standing.of(OperationStatus.SUCCEEDED, false, ESCALATED_AT, lease, NOW), "resolved by a person");
            assertEquals(Standing.FAILED, Standing.of(OperationStatus.FAILED_FINAL, false, null, lease, NOW));
            assertEquals(Standing.FAILED, Standing.of(OperationStatus.FAILED_FINAL, false, ESCALATED_AT, lease, NOW), "resolved by a person");
        }
    }

    @Test
    void everyStatusHasAStanding() {
        for (OperationStatus status : OperationStatus.values()) {
            for (Instant escalated : new Instant[] {null, ESCALATED_AT}) {
                for (Instant lease : new Instant[] {null, HELD, LAPSED, NOW}) {
                    Standing standing = Standing.of(status, false, escalated, lease, NOW);
                    assertEquals(status.isTerminal(), standing.finished(), status + " → " + standing);
                }
            }
        }
    }

    @Test
    void onlySucceededAndFailedAreFinished() {
        Set<Standing> finished = Arrays.stream(Standing.values()).filter(Standing::finished).collect(Collectors.toSet());
        assertEquals(EnumSet.of(Standing.SUCCEEDED, Standing.FAILED), finished);
    }

    @Test
    void countsEachStandingUnderTheStatusLabelOfTheUnfinishedMetric() {
        assertEquals("pending_approval", Standing.AWAITING_APPROVAL.metricStatus());
        assertEquals("started", Standing.IN_FLIGHT.metricStatus());
        assertEquals("started", Standing.LEASE_LAPSED.metricStatus(), "the metric does not split started by lease");
        assertEquals("unknown", Standing.UNKNOWN.metricStatus());
        assertEquals("escalated", Standing.ESCALATED.metricStatus(), "counted apart, as Backlog.now() does");
        assertEquals("failed_retryable", Standing.RETRY_WAITING.metricStatus());
        assertEquals("succeeded", Standing.SUCCEEDED.metricStatus());
        assertEquals("failed_final", Standing.FAILED.metricStatus());
    }

    @Test
    void aStandingsMetricStatusIsTheStatusOfItsOperationsOrEscalated() {
        for (OperationStatus status : OperationStatus.values()) {
            for (Instant escalated : new Instant[] {null, ESCALATED_AT}) {
                Standing standing = Standing.of(status, false, escalated, HELD, NOW);
                String expected = standing == Standing.ESCALATED ? "escalated" : status.dbName();
                assertEquals(expected, standing.metricStatus(), status + (escalated == null ? "" : ", escalated"));
            }
        }
    }

    @Test
    void slugsAreLowerCaseWithHyphensAndDistinct() {
        assertEquals("awaiting-approval", Standing.AWAITING_APPROVAL.slug());
        assertEquals("in-flight", Standing.IN_FLIGHT.slug());
        assertEquals("lease-lapsed", Standing.LEASE_LAPSED.slug());
        assertEquals("unknown", Standing.UNKNOWN.slug());
        assertEquals("escalated", Standing.ESCALATED.slug());
        assertEquals("retry-waiting", Standing.RETRY_WAITING.slug());
        assertEquals("succeeded", Standing.SUCCEEDED.slug());
        assertEquals("failed", Standing.FAILED.slug());
        assertEquals(Standing.values().length, Arrays.stream(Standing.values()).map(Standing::slug).distinct().count());
        for (Standing standing : Standing.values()) {
            assertTrue(standing.slug().matches("[a-z]+(-[a-z]+)*"), standing.slug());
        }
    }

    @Test
    void readsAViewByTheSameTable() {
        OperationView started = view(OperationStatus.STARTED, null, LAPSED);
        assertEquals(Standing.LEASE_LAPSED, Standing.of(started, false, NOW));
        assertEquals(Standing.IN_FLIGHT, Standing.of(started, false, LAPSED.minusSeconds(1)), "the same row, a moment before its lease ran out");
        assertEquals(Standing.ESCALATED, Standing.of(view(OperationStatus.UNKNOWN, ESCALATED_AT, null), false, NOW));
        assertFalse(Standing.of(view(OperationStatus.UNKNOWN, null, null), false, NOW).finished());
        assertEquals(Standing.AWAITING_CALLER, Standing.of(view(OperationStatus.PENDING_APPROVAL, null, null), true, NOW));
        assertEquals(Standing.AWAITING_APPROVAL, Standing.of(view(OperationStatus.PENDING_APPROVAL, null, null), false, NOW),
                "an approval that expired unused: a decision is due again");
    }

    private static OperationView view(OperationStatus status, Instant escalatedAt, Instant leaseUntil) {
        return new OperationView("acme", "k", "agent-a", "invoice.create", "1c", status, "h".repeat(64), null, java.util.List.of(),
                null, null, null, 1, leaseUntil, 1, null, 0, null, escalatedAt, NOW, NOW, null, null, null, false, null);
    }
}

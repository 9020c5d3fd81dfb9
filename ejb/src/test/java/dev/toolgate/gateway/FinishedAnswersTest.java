package dev.toolgate.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.toolgate.journal.JournalDatabase;
import dev.toolgate.journal.OperationStatus;
import dev.toolgate.journal.OperationView;
import jakarta.json.JsonValue;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** How long a finished answer may be replayed from memory: never once its row may have been purged. */
class FinishedAnswersTest {

    private static final Instant NOW = Instant.parse("2026-12-05T12:00:00Z");

    @Test
    void keepsAnAnswerForItsTimeWhenThePurgeIsFarOff() {
        assertEquals(NOW.plusSeconds(300), FinishedAnswers.keptUntil(NOW.minusSeconds(5), NOW, Duration.ofSeconds(300), Duration.ofDays(30)));
    }

    @Test
    void neverPastHalfTheRetentionAfterTheOperationFinished() {
        Instant finished = NOW.minus(Duration.ofHours(11).plusMinutes(59));
        assertEquals(finished.plus(Duration.ofHours(12)), FinishedAnswers.keptUntil(finished, NOW, Duration.ofSeconds(300), Duration.ofDays(1)),
                "a day's retention: the purge may take it 24 h after it finished; the copy goes at 12 h");
    }

    @Test
    void aRetentionOfNothingKeepsNothing() {
        assertEquals(NOW.minusSeconds(1), FinishedAnswers.keptUntil(NOW.minusSeconds(1), NOW, Duration.ofSeconds(300), Duration.ZERO));
    }

    @Test
    void answersAReplayedKeyOfItsTenantOnlyAndForgetsTheLeastRecentlyReplayedFirst() {
        FinishedAnswers answers = answers(2, 300);
        answers.remember(row("acme", "k1", OperationStatus.SUCCEEDED), NOW);
        answers.remember(row("acme", "k2", OperationStatus.FAILED_FINAL), NOW);
        assertEquals("k1", answers.find("acme", "k1", NOW).key());
        assertNull(answers.find("other-tenant", "k1", NOW), "another tenant's key of the same name");
        answers.remember(row("acme", "k3", OperationStatus.SUCCEEDED), NOW); // k2 was replayed longest ago
        assertNull(answers.find("acme", "k2", NOW));
        assertEquals("k3", answers.find("acme", "k3", NOW).key());
    }

    @Test
    void keepsNoRowThatIsNotFinishedAndNothingPastItsTime() {
        FinishedAnswers answers = answers(10, 300);
        answers.remember(row("acme", "started", OperationStatus.STARTED), NOW);
        answers.remember(row("acme", "unknown", OperationStatus.UNKNOWN), NOW);
        assertNull(answers.find("acme", "started", NOW));
        assertNull(answers.find("acme", "unknown", NOW));
        answers.remember(row("acme", "done", OperationStatus.SUCCEEDED), NOW);
        assertNull(answers.find("acme", "done", NOW.plusSeconds(300)), "its time is up");
    }

    @Test
    void keepsNothingWhenTurnedOff() {
        FinishedAnswers answers = answers(0, 300);
        answers.remember(row("acme", "k", OperationStatus.SUCCEEDED), NOW);
        assertNull(answers.find("acme", "k", NOW));
    }

    private static FinishedAnswers answers(int capacity, int seconds) {
        FinishedAnswers answers = new FinishedAnswers();
        answers.settings = JournalDatabase.retaining(30);
        answers.capacity = capacity;
        answers.seconds = seconds;
        return answers;
    }

    private static OperationView row(String tenant, String key, OperationStatus status) {
        return new OperationView(tenant, key, "agent-a", "invoice.create", "1c", status, "a".repeat(64), JsonValue.EMPTY_JSON_OBJECT,
                List.of(), status == OperationStatus.SUCCEEDED ? "ref-1" : null, null, null, 1, null, 1, null, 0, null,
                null, NOW, NOW, status.isTerminal() ? NOW : null, null, null, false, null);
    }
}

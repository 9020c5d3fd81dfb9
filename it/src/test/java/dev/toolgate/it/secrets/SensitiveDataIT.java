package dev.toolgate.it.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.MicroSuite;
import dev.toolgate.it.support.TestStack;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

/**
 * Sensitive data at the boundary: card numbers are refused before anything is stored; a person's INN
 * is sent to the target but never kept in the journal.
 */
class SensitiveDataIT extends MicroSuite {

    static final List<String> TEST_CARDS = List.of("4111111111111111", "5500 0000 0000 0004");

    @Test
    void refusesCardNumbersBeforeStoringAnything() throws Exception {
        long rows = TestStack.journalRows();
        Agent agent = new Agent(baseUrl());
        for (String card : TEST_CARDS) {
            Agent.Answer inField = agent.submit(key("card"), Agent.invoice("order " + card, 100));
            assertEquals(422, inField.status(), inField.body());
            assertEquals("card-number-rejected", inField.problem());
            assertEquals("payload.order_id", inField.json().getString("field", null), inField.body());
            assertFalse(inField.body().contains(card.substring(0, 4) + card.charAt(4)), "the answer never echoes the number");
        }
        Agent.Answer inKey = agent.submit("test:pay:" + TEST_CARDS.get(0).replace(" ", "") + ":v1", Agent.invoice("o", 1));
        assertEquals(422, inKey.status());
        assertEquals(rows, TestStack.journalRows(), "nothing stored");
    }

    @Test
    void keepsAPersonsInnOutOfTheJournalYetSendsIt() throws Exception {
        String key = key("order-person");
        oneC.arm("1c", key, "reset_before_commit", 1);
        assertEquals(202, agent().submit(key, Agent.invoiceToPerson("order-person", 5000)).status());
        Thread.sleep(2_200); // past the settle window: absence now proves nothing was created

        Agent.Answer sent = agent().submit(key, Agent.invoiceToPerson("order-person", 5000));

        assertEquals(201, sent.status(), "the caller's request carries the withheld INN for attempt 2: " + sent.body());
        JsonObject record = agent().find(key).json();
        assertFalse(record.getJsonObject("payload").containsKey("counterparty_inn"));
        assertEquals("counterparty_inn", record.getJsonArray("withheld_fields").getString(0));
        assertFalse(record.toString().contains(Agent.PERSON_INN));
    }
}

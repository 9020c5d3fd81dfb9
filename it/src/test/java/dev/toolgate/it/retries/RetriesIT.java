package dev.toolgate.it.retries;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.MicroSuite;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

/**
 * Retries within the call: a transient refusal is retried with back-off up to the budget, then the verdict
 * is final; where a target cannot tell whether a refused call ran (Bitrix24), it is looked up first.
 */
class RetriesIT extends MicroSuite {

    @Test
    void retriesATransientFailureWithinTheCallWithBackOff() {
        String key = key("order-demo-7");
        oneC.armStatus("1c", key, 429, 2);

        Agent.Answer answer = agent().submit(key, Agent.invoice("order-demo-7", 5000));

        assertEquals(201, answer.status(), answer.body());
        assertEquals(3, answer.json().getInt("attempt_count"));
        assertEquals(3, oneC.creates("1c", Agent.downstream(key)), "two refused attempts and the one that worked");
        assertEquals(1, oneC.effects("1c", Agent.downstream(key)).size());
    }

    @Test
    void givesUpAfterTheRetryBudgetAndReplaysThatVerdict() {
        String key = key("order-demo-9");
        oneC.armStatus("1c", key, 429, 4);

        Agent.Answer exhausted = agent().submit(key, Agent.invoice("order-demo-9", 5000));
        Agent.Answer replayed = agent().submit(key, Agent.invoice("order-demo-9", 5000));

        assertEquals(502, exhausted.status(), exhausted.body());
        assertEquals("retries-exhausted", exhausted.problem());
        assertEquals("failed_final", exhausted.operation().getString("status"));
        assertEquals(4, oneC.creates("1c", Agent.downstream(key)), "the default budget: 4 attempts, then stop");
        assertEquals(502, replayed.status());
        assertEquals("true", replayed.header("Idempotent-Replayed"));
        assertEquals(4, oneC.creates("1c", Agent.downstream(key)));
    }

    @Test
    void createsOneCrmDealAndListsBeforeSendingAgain() {
        String key = "test:crm.deal.create:" + UUID.randomUUID() + ":v1";
        String deal = "{\"operation\":\"crm.deal.create\",\"target\":\"bitrix24\",\"payload\":"
                + "{\"title\":\"Поставка\",\"amount_minor\":990000,\"currency\":\"RUB\"}}";
        oneC.armStatus("bitrix24", key, 503, 1); // QUERY_LIMIT_EXCEEDED: not run, retried within the call

        Agent.Answer created = agent().submit(key, deal);
        Agent.Answer replayed = agent().submit(key, deal);

        assertEquals(201, created.status(), created.body());
        assertEquals(2, created.json().getInt("attempt_count"));
        assertEquals(200, replayed.status());
        assertEquals(List.of(created.json().getString("target_object_id")), oneC.effects("bitrix24", Agent.downstream(key)));
        assertEquals(1, oneC.lookups("bitrix24", Agent.downstream(key)), "attempt 2 listed before adding");
    }
}

package dev.toolgate.it.reconciliation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.MicroSuite;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

/**
 * An outcome the gateway never heard (response lost, connection reset) is settled when the caller
 * comes back: looked up by key first, sent again only when absence is proven (after the settle window),
 * and left unknown while the target cannot be asked.
 */
class UnknownOutcomeIT extends MicroSuite {

    @Test
    void settlesADroppedResponseByLookingUpTheKey() {
        String key = key("order-demo-3");
        oneC.arm("1c", key, "drop_response_after_commit", 1);

        Agent.Answer lost = agent().submit(key, Agent.invoice("order-demo-3", 5000));
        assertEquals(202, lost.status(), lost.body());
        assertEquals("outcome-unknown", lost.problem());
        assertEquals("unknown", lost.operation().getString("status"));
        assertNotNull(lost.header("Retry-After"));

        Agent.Answer settled = agent().submit(key, Agent.invoice("order-demo-3", 5000));
        assertEquals(200, settled.status(), settled.body());
        assertEquals("succeeded", settled.json().getString("status"));
        assertEquals(oneC.effects("1c", Agent.downstream(key)), List.of(settled.json().getString("target_object_id")));
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "found by key, never sent again");
        assertEquals(1, oneC.lookups("1c", Agent.downstream(key)));
    }

    @Test
    void sendsAgainOnlyWhenTheLookUpStillFindsNothingAfterTheSettleWindow() throws Exception {
        String key = key("order-demo-4");
        oneC.arm("1c", key, "reset_before_commit", 1);

        assertEquals(202, agent().submit(key, Agent.invoice("order-demo-4", 5000)).status());
        Agent.Answer tooEarly = agent().submit(key, Agent.invoice("order-demo-4", 5000));
        assertEquals(202, tooEarly.status(), "absence inside the settle window proves nothing: " + tooEarly.body());
        Thread.sleep(2_200); // the suite's settle window is 2 s
        Agent.Answer retried = agent().submit(key, Agent.invoice("order-demo-4", 5000));

        assertEquals(201, retried.status(), retried.body());
        assertEquals(2, retried.json().getInt("attempt_count"));
        assertEquals(1, oneC.effects("1c", Agent.downstream(key)).size());
        assertEquals(2, oneC.lookups("1c", Agent.downstream(key)), "looked up before the second attempt, every time");
    }

    @Test
    void keepsTheOutcomeUnknownWhileTheTargetCannotBeAsked() {
        String key = key("order-demo-5");
        oneC.arm("1c", key, "drop_response_after_commit", 1);
        assertEquals(202, agent().submit(key, Agent.invoice("order-demo-5", 5000)).status());
        oneC.armStatus("1c", key, 503, 1); // the look-up itself fails

        Agent.Answer unsettled = agent().submit(key, Agent.invoice("order-demo-5", 5000));
        Agent.Answer tooSoon = agent().submit(key, Agent.invoice("order-demo-5", 5000));

        assertEquals(202, unsettled.status(), unsettled.body());
        assertTrue(Instant.parse(unsettled.operation().getString("next_check_at")).isAfter(Instant.now().minusSeconds(1)));
        assertEquals(202, tooSoon.status());
        assertEquals(1, oneC.lookups("1c", Agent.downstream(key)), "no second look-up before next_check_at");
        assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "never sent again while unknown");
    }

    @Test
    void anAgentPollingAnUnsettledOperationJournalsNothingNew() {
        String key = key("order-demo-5p");
        oneC.arm("1c", key, "drop_response_after_commit", 1);
        assertEquals(202, agent().submit(key, Agent.invoice("order-demo-5p", 5000)).status());
        oneC.armStatus("1c", key, 503, 1); // the look-up fails: the row stays unknown until next_check_at
        assertEquals(202, agent().submit(key, Agent.invoice("order-demo-5p", 5000)).status());
        List<String> before = eventKinds(key);

        for (int poll = 0; poll < 5; poll++) {
            Agent.Answer tooSoon = agent().submit(key, Agent.invoice("order-demo-5p", 5000));
            assertEquals(202, tooSoon.status(), tooSoon.body());
            assertEquals("outcome-unknown", tooSoon.problem());
        }

        // a poll changes nothing, so it is counted and logged, not journaled: the story stays the operation's
        assertEquals(before, eventKinds(key), "five polls before next_check_at");
        assertEquals(1, oneC.lookups("1c", Agent.downstream(key)));
    }

    private List<String> eventKinds(String key) {
        return agent().find(key).json().getJsonArray("events").stream().map(e -> e.asJsonObject().getString("kind")).toList();
    }
}

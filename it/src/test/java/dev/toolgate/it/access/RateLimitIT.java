package dev.toolgate.it.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.Credentials;
import dev.toolgate.it.support.MicroSuite;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** A principal's rate limit: a runaway agent is slowed (429 + Retry-After) while the others are served. */
class RateLimitIT extends MicroSuite {

    @Test
    void aRunawayAgentIsSlowedWithoutStarvingTheOthers() throws Exception {
        String runaway = "runaway-" + UUID.randomUUID().toString().substring(0, 8);
        String token = Credentials.issue(baseUrl(), runaway, "acme", "auditor");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Callable<Agent.Answer>> burst = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            burst.add(() -> reader(token));
        }
        int limited = 0;
        try {
            for (Future<Agent.Answer> answer : pool.invokeAll(burst)) {
                if (answer.get().status() == 429) {
                    limited++;
                    assertNotNull(answer.get().header("Retry-After"));
                }
            }
        } finally {
            pool.shutdown();
        }
        assertTrue(limited > 0, "the burst went past the limit");
        assertEquals(404, new Agent(baseUrl(), "auditor").find(key("other")).status(), "another principal is unaffected");
    }
}

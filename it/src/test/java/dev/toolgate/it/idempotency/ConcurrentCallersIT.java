package dev.toolgate.it.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.MicroSuite;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Many callers racing on the same keys: one owner per key calls the target, the others wait or are told to come back.
 */
class ConcurrentCallersIT extends MicroSuite {

    @Test
    void answersOneOwnerPerKeyUnderConcurrency() throws Exception {
        List<String> keys = new ArrayList<>();
        List<Callable<Agent.Answer>> calls = new ArrayList<>();
        for (int k = 0; k < 5; k++) {
            String key = key("concurrent-" + k);
            keys.add(key);
            oneC.armDelay("1c", key, 800); // hold the owner's call open while the others arrive
        }
        for (int i = 0; i < 20; i++) { // interleaved: every key's requests alternate with the others'
            for (String key : keys) {
                calls.add(() -> agent().submit(key, Agent.invoice(key.split(":")[2], 7000)));
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(32);
        List<Future<Agent.Answer>> answers;
        try {
            answers = pool.invokeAll(calls);
        } finally {
            pool.shutdown();
        }

        for (String key : keys) {
            Set<String> objects = new HashSet<>();
            int created = 0;
            for (int i = 0; i < calls.size(); i++) {
                if (!keys.get(i % keys.size()).equals(key)) {
                    continue;
                }
                Agent.Answer answer = answers.get(i).get();
                assertTrue(Set.of(200, 201, 409).contains(answer.status()), answer.body());
                created += answer.status() == 201 ? 1 : 0;
                if (answer.status() != 409) {
                    objects.add(answer.json().getString("target_object_id"));
                }
            }
            assertEquals(1, oneC.creates("1c", Agent.downstream(key)), "exactly one target call for " + key);
            assertEquals(1, oneC.effects("1c", Agent.downstream(key)).size());
            assertEquals(1, created, "exactly one 201 for " + key);
            assertEquals(1, objects.size(), "every answer names the same object");
        }
    }
}

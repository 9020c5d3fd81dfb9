package dev.toolgate.targets.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.targets.Attempt;
import dev.toolgate.targets.EffectGate;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.Target;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** An adapter that throws yields an outcome classified by whether an effect request may have left. */
class AdapterFailuresTest {

    private static final String SECRET_VALUE = "500100732259";
    private final List<LogRecord> logged = new ArrayList<>();
    private final Logger log = Logger.getLogger("dev.toolgate.operations");
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void listen() {
        log.addHandler(capture);
    }

    @AfterEach
    void stopListening() {
        log.removeHandler(capture);
    }

    @Test
    void aFailureBeforeAnyEffectRequestIsSafeToTryAgain() {
        Outcome outcome = AdapterFailures.ofExecute("1c", dispatch(EffectGate.unguarded()), failure());
        assertEquals("adapter_error", assertInstanceOf(Outcome.Transient.class, outcome).errorCode());
    }

    @Test
    void aFailureAfterAnEffectRequestWasPermittedIsUnknown() {
        EffectGate gate = EffectGate.unguarded();
        gate.beforeEffect(); // the adapter was let through to send
        Outcome outcome = AdapterFailures.ofExecute("1c", dispatch(gate), failure());
        assertEquals("adapter_error", assertInstanceOf(Outcome.Unknown.class, outcome).errorCode());
    }

    @Test
    void aLookUpThatThrowsCouldNotBeMade() {
        assertEquals(new Lookup.Unavailable("adapter_error"), AdapterFailures.ofLookup("1c", failure()));
    }

    @Test
    void aSharedLookUpThatThrowsHasEachAttemptLookedUpAloneEachFailureItsOwn() {
        Attempt broken = new Attempt("acme/broken", "invoice.create", 1, JsonValue.EMPTY_JSON_OBJECT, Instant.now(), null, null);
        Attempt healthy = new Attempt("acme/healthy", "invoice.create", 1, JsonValue.EMPTY_JSON_OBJECT, Instant.now(), null, null);
        Target adapter = new Target() {
            @Override
            public String system() {
                return "1c";
            }

            @Override
            public Outcome execute(Attempt attempt) {
                throw new UnsupportedOperationException();
            }

            @Override
            public Lookup lookup(Attempt attempt) {
                if (attempt == broken) {
                    throw failure();
                }
                return new Lookup.Absent();
            }

            @Override
            public List<Lookup> lookupAll(List<Attempt> attempts) {
                throw failure(); // as an adapter does whose shared answer holds something one key's look-up cannot read
            }
        };

        assertEquals(List.of(new Lookup.Unavailable("adapter_error"), new Lookup.Absent()),
                TargetRegistry.lookupAll("1c", adapter, List.of(broken, healthy)));
        assertEquals(List.of(new Lookup.Unavailable("target_not_configured"), new Lookup.Unavailable("target_not_configured")),
                TargetRegistry.lookupAll("1c", null, List.of(broken, healthy)));
        assertEquals(2, logged.size(), "the shared failure and the broken attempt's, each an incident");
    }

    @Test
    void theIncidentIsLoggedWithoutTheExceptionsMessage() {
        AdapterFailures.ofLookup("1c", failure());
        assertEquals(1, logged.size());
        String line = logged.get(0).getMessage();
        assertTrue(line.contains("incident=") && line.contains("error=java.time.DateTimeException"), line);
        assertFalse(line.contains(SECRET_VALUE), "a parser's message quotes its input: " + line);
        assertEquals(null, logged.get(0).getThrown());
    }

    private static RuntimeException failure() {
        return new java.time.DateTimeException("Text '" + SECRET_VALUE + "' could not be parsed");
    }

    private static Attempt dispatch(EffectGate gate) {
        return new Attempt("acme/k", "invoice.create", 1, JsonValue.EMPTY_JSON_OBJECT, Instant.now(), null, null, gate);
    }
}

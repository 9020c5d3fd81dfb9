package dev.toolgate.simulator;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Simulators of a test's own, their control API, and a receiver for what they notify: started before each test, ended after. */
final class NotifyingSimulators implements BeforeEachCallback, AfterEachCallback {

    /** How long a test waits for a notification that should come. */
    static final Duration WAIT = Duration.ofSeconds(10);

    /**
     * On a test: YooKassa retries an unanswered notification at these intervals (ms), not at its own
     * ({@link YooKassaApi#RETRY_MS}), for a test that waits out every retry but is not about the intervals themselves.
     * As many as YooKassa's own: what such a test counts is then what the simulator does.
     */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @interface YooKassaRetryMs {
        long[] value();
    }

    private Simulators simulators;
    private SimulatorClient control;
    private NotificationReceiver receiver;

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        List<Long> yooKassaRetryMs = context.getTestMethod().map(test -> test.getAnnotation(YooKassaRetryMs.class))
                .map(retries -> Arrays.stream(retries.value()).boxed().toList()).orElse(YooKassaApi.RETRY_MS);
        if (yooKassaRetryMs.size() != YooKassaApi.RETRY_MS.size()) {
            throw new IllegalStateException("@YooKassaRetryMs " + yooKassaRetryMs + " has not as many retries as YooKassa's own "
                    + YooKassaApi.RETRY_MS);
        }
        simulators = Simulators.start(0, Map.of(), yooKassaRetryMs);
        control = new SimulatorClient(simulators.baseUrl());
        receiver = new NotificationReceiver();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        receiver.close();
        simulators.close();
    }

    Simulators simulators() {
        return simulators;
    }

    SimulatorClient control() {
        return control;
    }

    NotificationReceiver receiver() {
        return receiver;
    }
}

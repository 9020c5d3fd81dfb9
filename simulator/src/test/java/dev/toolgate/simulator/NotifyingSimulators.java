package dev.toolgate.simulator;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.time.Duration;
import java.util.Map;

/** Simulators of a test's own, their control API, and a receiver for what they notify: started before each test, ended after. */
final class NotifyingSimulators implements BeforeEachCallback, AfterEachCallback {

    /** How long a test waits for a notification that should come. */
    static final Duration WAIT = Duration.ofSeconds(10);

    private Simulators simulators;
    private SimulatorClient control;
    private NotificationReceiver receiver;

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        simulators = Simulators.start(0, Map.of());
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

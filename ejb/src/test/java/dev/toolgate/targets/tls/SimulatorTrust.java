package dev.toolgate.targets.tls;

import dev.toolgate.simulator.Simulators;

import java.util.Map;
import java.util.Optional;

/** A target's TLS settings trusting the simulators' per-run CA, read through the same reader as the gateway's. */
public final class SimulatorTrust {

    private SimulatorTrust() {
    }

    public static TlsSettings of(Simulators simulators, String system) {
        Map<String, String> settings = simulators.trustSettings(system);
        return TlsSettings.from(name -> Optional.ofNullable(settings.get(name)), system);
    }
}

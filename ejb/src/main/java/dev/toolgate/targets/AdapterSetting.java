package dev.toolgate.targets;

import org.eclipse.microprofile.config.Config;

/**
 * Which adapter serves a system: {@code toolgate.target.<system>.adapter = http} names the generic HTTP adapter, whose
 * settings, its timeouts among them, live under {@code toolgate.target.<system>.http.}; any other value, or none, the
 * system's own adapter. Here, not in the generic adapter's package, since the registry and {@link RequestTimeouts}
 * both ask it and that package builds on this one.
 */
public final class AdapterSetting {

    private AdapterSetting() {
    }

    public static boolean genericHttp(Config config, String system) {
        return "http".equals(config.getOptionalValue("toolgate.target." + system + ".adapter", String.class).orElse(""));
    }
}

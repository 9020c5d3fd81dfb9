package dev.toolgate.targets;

import org.eclipse.microprofile.config.Config;

/**
 * Which adapter serves a system: {@code toolgate.target.<system>.adapter = http} names the generic HTTP adapter (its
 * settings under {@code toolgate.target.<system>.http.}), anything else the system's own. Here because the registry
 * and {@link RequestTimeouts} both ask it, and the generic adapter's package builds on this one.
 */
public final class AdapterSetting {

    private AdapterSetting() {
    }

    public static boolean genericHttp(Config config, String system) {
        return "http".equals(config.getOptionalValue("toolgate.target." + system + ".adapter", String.class).orElse(""));
    }
}

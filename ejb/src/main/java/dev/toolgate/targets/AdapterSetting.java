package dev.toolgate.targets;

import org.eclipse.microprofile.config.Config;

/** Which adapter serves a system: {@code toolgate.target.<system>.adapter = http} names the generic one. */
public final class AdapterSetting {

    private AdapterSetting() {
    }

    public static boolean genericHttp(Config config, String system) {
        return "http".equals(config.getOptionalValue("toolgate.target." + system + ".adapter", String.class).orElse(""));
    }
}

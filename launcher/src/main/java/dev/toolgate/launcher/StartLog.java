package dev.toolgate.launcher;

import java.util.List;

/**
 * What Payara Micro's log says of a start: still starting, up with the gateway deployed, up with the gateway
 * failed, or up without saying either. Micro deploys its archives before it prints that it is ready, and says
 * which it deployed; an up Micro that has not said so and logged errors failed to deploy the gateway, and
 * waiting longer cannot change that. A deployed gateway whose first requests are slow (a cold application on
 * loaded cores) is only slow: it is given the whole start-up timeout, not a grace that a busy machine can
 * outlast — and so is one whose log says neither (another Micro's wording, another locale): the caller's
 * probe decides, and only evidence of failure ends the wait early.
 */
enum StartLog {
    STARTING, DEPLOYED, NOT_DEPLOYED, UNCLEAR;

    static final String READY = ") ready in ";
    static final String GATEWAY_DEPLOYED = "ROOT was successfully deployed";

    /** The verdict on what this start has written to the log so far. */
    static StartLog of(String sinceStart) {
        if (!sinceStart.contains(READY)) {
            return STARTING;
        }
        if (sinceStart.contains(GATEWAY_DEPLOYED)) {
            return DEPLOYED;
        }
        return why(sinceStart, 1).isEmpty() ? UNCLEAR : NOT_DEPLOYED;
    }

    /** The first lines that say why, for the failure's message: the log itself may be gone by the time anyone reads it. */
    static List<String> why(String sinceStart, int most) {
        return sinceStart.lines()
                .filter(line -> line.contains("SEVERE") || line.startsWith("Caused by:") || line.contains("Exception:"))
                .map(line -> line.length() > 300 ? line.substring(0, 300) + "…" : line)
                .limit(most)
                .toList();
    }
}

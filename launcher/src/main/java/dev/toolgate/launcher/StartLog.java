package dev.toolgate.launcher;

import java.util.List;

/**
 * What Payara Micro's log says of a start: still starting, up with the gateway deployed, up with the gateway failed,
 * or up without saying either. Micro says which archives it deployed before it says it is ready, so an up Micro that
 * has not named the gateway and logged errors failed to deploy it; anything else (a cold application on loaded cores,
 * another Micro's wording) gets the whole start-up timeout: only evidence of failure ends the wait early.
 */
enum StartLog {
    STARTING, DEPLOYED, NOT_DEPLOYED, UNCLEAR;

    static final String READY = ") ready in ";
    static final String GATEWAY_DEPLOYED = "ROOT was successfully deployed";

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

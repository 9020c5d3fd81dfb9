package dev.toolgate.targets.bitrix24;

import dev.toolgate.targets.Exchange;
import dev.toolgate.targets.TargetHttpClient;
import jakarta.json.JsonObject;

import java.util.Set;

/** What the portal's error answers prove, for the calls that make an effect and the look-ups alike. */
final class Bitrix24Answers {

    /** Limit errors: the portal refused the call before running it (docs/targets.md). */
    static final Set<String> LIMITS = Set.of("QUERY_LIMIT_EXCEEDED", "OVERLOAD_LIMIT", "OPERATION_TIME_LIMIT");

    private Bitrix24Answers() {
    }

    /** Whether {@code answered} is a limit error: asked again later, it may be answered. */
    static boolean limitError(Exchange.Answered answered) {
        JsonObject body = TargetHttpClient.jsonObject(answered.body());
        return body != null && LIMITS.contains(body.getString("error", ""));
    }
}

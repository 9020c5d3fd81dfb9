package dev.toolgate.platform;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Handler;
import java.util.logging.LogManager;
import java.util.logging.Logger;

/**
 * Warns at start when the server's JSON log will look a JSON-P provider up on every line: Payara's JSON log formatter
 * builds each line with {@code Json.createObjectBuilder()}, which scans the class path for a provider on every call
 * unless the system property {@code jakarta.json.provider} names one. Still needed while Payara's
 * {@code JSONLogFormatter} calls the static {@code Json} factory: the benchmark's two JSON-log runs show what it costs
 * (docs/benchmark.md, "JSON logs"); {@code JsonLogProviderTest} holds the rule, {@code EarSuite} its wiring on each server.
 */
@Singleton
@Startup
public class JsonLogProvider {

    static final String PROPERTY = "jakarta.json.provider";
    static final String PAYARA_JSON_FORMATTER = "fish.payara.enterprise.server.logging.JSONLogFormatter";
    static final String PARSSON = "org.eclipse.parsson.JsonProviderImpl";
    private static final String PAYARA_SERVER_FILE_HANDLER = "com.sun.enterprise.server.logging.GFFileHandler";

    private static final Logger LOG = Logger.getLogger(JsonLogProvider.class.getName());

    @PostConstruct
    void check() {
        advice(formatters(), System.getProperty(PROPERTY)).ifPresent(LOG::warning);
    }

    /**
     * The formatters the log is written with: the root handlers' own, and those the log configuration names for them and
     * for Payara Server's file handler, which Payara applies to the handler it makes (set-log-attributes writes it there).
     */
    private static List<String> formatters() {
        LogManager manager = LogManager.getLogManager();
        List<String> formatters = new ArrayList<>();
        List<String> handlers = new ArrayList<>(List.of(PAYARA_SERVER_FILE_HANDLER));
        for (Handler handler : Logger.getLogger("").getHandlers()) {
            handlers.add(handler.getClass().getName());
            if (handler.getFormatter() != null) {
                formatters.add(handler.getFormatter().getClass().getName());
            }
        }
        for (String handler : handlers) {
            String named = manager.getProperty(handler + ".formatter");
            if (named != null) {
                formatters.add(named.trim());
            }
        }
        return formatters;
    }

    /** The warning to log, if the log is written by Payara's JSON formatter and no provider is named. */
    static Optional<String> advice(List<String> formatterClasses, String provider) {
        if (provider != null && !provider.isBlank() || !formatterClasses.contains(PAYARA_JSON_FORMATTER)) {
            return Optional.empty();
        }
        return Optional.of("the log is written as JSON by " + PAYARA_JSON_FORMATTER + ", which looks a JSON provider up on"
                + " every line: start the server's JVM with -D" + PROPERTY + "=" + PARSSON + " (docs/operations.md, Observability)");
    }
}

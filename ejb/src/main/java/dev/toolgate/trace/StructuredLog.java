package dev.toolgate.trace;

import dev.toolgate.platform.JBossMdc;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Log lines whose fields a pipeline reads without parsing prose: logfmt pairs in text; as JSON, Payara lifts a
 * {@code Map} parameter into fields and WildFly prints the JBoss Logging MDC ({@link JBossMdc}).
 */
public final class StructuredLog {

    private StructuredLog() {
    }

    public static void log(Logger logger, Level level, String message, Map<String, String> fields) {
        log(logger, level, message, fields, null);
    }

    /**
     * A failure nobody's input explains, at SEVERE under a fresh incident id: the exception's class and throwing frame,
     * never its message, which may quote input (a payload value, a bound SQL parameter). Returns the incident id.
     */
    public static String incident(Logger logger, String message, Map<String, String> fields, Throwable e) {
        String id = UUID.randomUUID().toString();
        Map<String, String> all = new LinkedHashMap<>();
        all.put("incident", id);
        all.putAll(Trace.logFields());
        all.putAll(fields);
        StringBuilder chain = new StringBuilder(e.getClass().getName());
        Throwable cause = e;
        for (int depth = 0; cause.getCause() != null && cause.getCause() != cause && depth < 16; depth++) {
            cause = cause.getCause();
            chain.append(" < ").append(cause.getClass().getName());
        }
        all.put("error", chain.toString());
        all.put("at", firstFrame(e));
        log(logger, Level.SEVERE, message, all);
        return id;
    }

    /** The first frame of our own code in {@code e}'s innermost cause (else its first frame): where to look. */
    private static String firstFrame(Throwable e) {
        Throwable root = e;
        for (int depth = 0; root.getCause() != null && root.getCause() != root && depth < 16; depth++) {
            root = root.getCause();
        }
        for (Throwable t : new Throwable[] {root, e}) {
            for (StackTraceElement frame : t.getStackTrace()) {
                if (frame.getClassName().startsWith("dev.toolgate.")) {
                    return frame.toString();
                }
            }
        }
        StackTraceElement[] frames = root.getStackTrace();
        return frames.length > 0 ? frames[0].toString() : "";
    }

    public static void log(Logger logger, Level level, String message, Map<String, String> fields, Throwable thrown) {
        if (!logger.isLoggable(level)) {
            return;
        }
        LogRecord record = new LogRecord(level, message + logfmt(fields));
        record.setLoggerName(logger.getName());
        record.setThrown(thrown);
        // a text formatter runs java.text.MessageFormat over a message with parameters that holds
        // "{0"…: such a message (a key may contain anything printable) goes without the Map
        if (!hasFormatArgument(record.getMessage())) {
            record.setParameters(new Object[] {fields});
        }
        JBossMdc.put(fields);
        try {
            logger.log(record);
        } finally {
            JBossMdc.remove(fields);
        }
    }

    /** {@code " name=value name2=\"a value\""}: quoted when a value holds a space, a quote or an equals sign. */
    static String logfmt(Map<String, String> fields) {
        StringBuilder text = new StringBuilder();
        fields.forEach((name, value) -> {
            if (value != null) {
                text.append(' ').append(name).append('=').append(isBare(value) ? value
                        : '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"');
            }
        });
        return text.toString();
    }

    private static boolean isBare(String value) {
        if (value.isEmpty()) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            switch (value.charAt(i)) {
                case ' ', '\t', '\n', '\u000b', '\f', '\r', '"', '=', '\\' -> {
                    return false;
                }
                default -> {
                }
            }
        }
        return true;
    }

    private static boolean hasFormatArgument(String message) {
        for (int i = message.indexOf('{'); i >= 0 && i + 1 < message.length(); i = message.indexOf('{', i + 1)) {
            char next = message.charAt(i + 1);
            if (next >= '0' && next <= '9') {
                return true;
            }
        }
        return false;
    }
}

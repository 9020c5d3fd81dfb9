package dev.toolgate.trace;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.LogManager;
import java.util.logging.Logger;

/**
 * Log lines whose fields a log pipeline can read without parsing prose, on either server and in
 * either of its formats. The text ends in {@code name=value} pairs (logfmt), which the servers' plain
 * formatters print as they are. Switched to JSON, each server shows the same pairs as fields: Payara's
 * JSON formatter lifts a {@code Map} log parameter into top-level fields, and WildFly's
 * {@code json-formatter} prints the JBoss Logging MDC, which is filled for the duration of the call
 * (looked up reflectively, and only under JBoss LogManager: JUL has no MDC of its own).
 */
public final class StructuredLog {

    /**
     * The MDC only reaches a log line when JBoss LogManager formats it (WildFly). Payara has JBoss Logging's
     * classes too (for Weld), whose MDC no formatter there reads: filling it cost every line for nothing.
     */
    private static final boolean JBOSS_LOG_MANAGER = LogManager.getLogManager().getClass().getName().startsWith("org.jboss.logmanager.");
    private static final MethodHandle MDC_PUT = JBOSS_LOG_MANAGER
            ? mdc("put", MethodType.methodType(Object.class, String.class, Object.class)) : null;
    private static final MethodHandle MDC_REMOVE = JBOSS_LOG_MANAGER
            ? mdc("remove", MethodType.methodType(void.class, String.class)) : null;

    private StructuredLog() {
    }

    /** Writes {@code message} with {@code fields} (in their order; null values left out) to {@code logger}. */
    public static void log(Logger logger, Level level, String message, Map<String, String> fields) {
        log(logger, level, message, fields, null);
    }

    /**
     * An incident: a failure nobody's input explains, logged at SEVERE under a fresh incident id with the
     * trace's fields, {@code fields}, the exception's class and the frame that threw — not its message,
     * since a parser's or a driver's message quotes its input (a payload value, a bound SQL parameter).
     * Returns the incident id.
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

    /** The same, with the exception that caused it. */
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
        putMdc(fields);
        try {
            logger.log(record);
        } finally {
            removeMdc(fields);
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

    /** Whether {@code value} goes unquoted: not empty, and no whitespace, quote, equals sign or backslash in it. */
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

    /** Whether {@code message} holds "{" and a digit, which java.text.MessageFormat would read as an argument. */
    private static boolean hasFormatArgument(String message) {
        for (int i = message.indexOf('{'); i >= 0 && i + 1 < message.length(); i = message.indexOf('{', i + 1)) {
            char next = message.charAt(i + 1);
            if (next >= '0' && next <= '9') {
                return true;
            }
        }
        return false;
    }

    private static void putMdc(Map<String, String> fields) {
        if (MDC_PUT != null) {
            fields.forEach((name, value) -> {
                if (value != null) {
                    invoke(MDC_PUT, name, value);
                }
            });
        }
    }

    private static void removeMdc(Map<String, String> fields) {
        if (MDC_REMOVE != null) {
            fields.keySet().forEach(name -> invoke(MDC_REMOVE, name, null));
        }
    }

    private static void invoke(MethodHandle handle, String name, String value) {
        try {
            if (value == null) {
                handle.invoke(name);
            } else {
                handle.invoke(name, (Object) value);
            }
        } catch (Throwable e) {
            // the MDC is a convenience of one server's JSON format; a failure must not cost the log line
        }
    }

    private static MethodHandle mdc(String name, MethodType type) {
        try {
            Class<?> mdc = Class.forName("org.jboss.logging.MDC", false, StructuredLog.class.getClassLoader());
            return MethodHandles.publicLookup().findStatic(mdc, name, type);
        } catch (ReflectiveOperationException | LinkageError absent) {
            return null; // not WildFly: Payara's formatter reads the Map parameter instead
        }
    }
}

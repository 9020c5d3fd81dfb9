package dev.toolgate.trace;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * Log lines whose fields a log pipeline can read without parsing prose, on either server and in
 * either of its formats. The text ends in {@code name=value} pairs (logfmt), which the servers' plain
 * formatters print as they are. Switched to JSON, each server shows the same pairs as fields: Payara's
 * JSON formatter lifts a {@code Map} log parameter into top-level fields, and WildFly's
 * {@code json-formatter} prints the JBoss Logging MDC, which is filled for the duration of the call
 * (looked up reflectively: the class exists on WildFly only, and JUL has no MDC of its own).
 */
public final class StructuredLog {

    private static final Pattern BARE = Pattern.compile("[^\\s\"=\\\\]+");
    private static final Pattern MESSAGE_FORMAT_ARGUMENT = Pattern.compile("\\{[0-9]");
    private static final MethodHandle MDC_PUT = mdc("put", MethodType.methodType(Object.class, String.class, Object.class));
    private static final MethodHandle MDC_REMOVE = mdc("remove", MethodType.methodType(void.class, String.class));

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
        if (!MESSAGE_FORMAT_ARGUMENT.matcher(record.getMessage()).find()) {
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
                text.append(' ').append(name).append('=').append(BARE.matcher(value).matches() ? value
                        : '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"');
            }
        });
        return text.toString();
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

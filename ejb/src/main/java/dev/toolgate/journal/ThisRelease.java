package dev.toolgate.journal;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The release this code is part of, as its build wrote it: recorded on each capture ({@code captured_release}) and
 * said by readiness, so during a rolling upgrade the journal tells whose work each operation is (docs/operations.md).
 */
public final class ThisRelease {

    private static final String NAME = read();

    private ThisRelease() {
    }

    public static String name() {
        return NAME;
    }

    /** {@code <version>+<commit>}; {@code unnamed} when the build wrote nothing: logged, never a reason to refuse a capture. */
    private static String read() {
        try (InputStream in = ThisRelease.class.getResourceAsStream("/META-INF/toolgate/release.properties")) {
            Properties properties = new Properties();
            if (in != null) {
                properties.load(in);
            }
            return named(properties.getProperty("release", ""));
        } catch (IOException e) {
            return named("");
        }
    }

    static String named(String written) {
        String name = written.strip();
        int commit = name.indexOf('+');
        if (commit >= 0 && (commit == name.length() - 1 || name.startsWith("${", commit + 1))) {
            name = name.substring(0, commit);
        }
        if (name.isEmpty() || name.startsWith("${")) {
            java.util.logging.Logger.getLogger(ThisRelease.class.getName()).warning(
                    "the build did not name this release (META-INF/toolgate/release.properties): captures record it as unnamed");
            return "unnamed";
        }
        return name;
    }
}

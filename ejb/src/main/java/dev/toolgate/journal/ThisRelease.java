package dev.toolgate.journal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The name of the release this code is part of, as its build wrote it: recorded with each operation and process it
 * captures ({@code captured_release}) and said by readiness, so that during a rolling upgrade the journal tells whose
 * work each unfinished operation is (docs/operations.md, "Upgrading").
 */
public final class ThisRelease {

    private static final String NAME = read();

    private ThisRelease() {
    }

    public static String name() {
        return NAME;
    }

    private static String read() {
        try (InputStream in = ThisRelease.class.getResourceAsStream("/META-INF/toolgate/release.properties")) {
            if (in == null) {
                throw new IllegalStateException("META-INF/toolgate/release.properties is missing from the build");
            }
            Properties properties = new Properties();
            properties.load(in);
            String name = properties.getProperty("release", "").strip();
            if (name.isEmpty() || name.startsWith("${")) {
                throw new IllegalStateException("the build did not name the release: " + name);
            }
            return name;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package dev.toolgate.launcher;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntPredicate;

/**
 * The JDKs a process of the local run or the tests may need beside the build's own: Keycloak on Java 25, Payara Micro 7
 * on 21 or newer. The one a system property names, if it is set (that one or none: never another behind the user's
 * back); else the first in /usr/lib/jvm whose release fits, Temurin 25 first.
 */
public final class Jdks {

    private static final Path JVMS = Path.of("/usr/lib/jvm");

    private Jdks() {
    }

    /** A JDK whose feature release {@code fits}; every place looked at is added to {@code tried}, for a message. */
    public static Optional<Path> find(String property, IntPredicate fits, List<Path> tried) throws IOException {
        String configured = System.getProperty(property, "");
        if (!configured.isBlank()) {
            tried.add(Path.of(configured));
        } else {
            tried.add(JVMS.resolve("temurin-25-jdk-amd64"));
            if (Files.isDirectory(JVMS)) {
                List<Path> others = new ArrayList<>();
                try (DirectoryStream<Path> jvms = Files.newDirectoryStream(JVMS)) {
                    jvms.forEach(others::add);
                }
                others.stream().sorted().filter(jdk -> !tried.contains(jdk)).forEach(tried::add);
            }
        }
        return tried.stream().filter(jdk -> Files.isExecutable(jdk.resolve("bin/java")) && fits.test(feature(jdk))).findFirst();
    }

    /** The JDK's feature release, from its {@code release} file ({@code JAVA_VERSION="25.0.1"}): a name can mislead. */
    static int feature(Path jdk) {
        try {
            for (String line : Files.readAllLines(jdk.resolve("release"))) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String version = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                    return Integer.parseInt(version.split("[.+-]")[0]);
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            // not a JDK this can tell the release of
        }
        return -1;
    }
}

package dev.toolgate.it.support;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The JDK that runs Keycloak: a Java 25 of its own, not the tests' 17, so that a Keycloak that needs a newer Java
 * changes only this (26.7.3 still starts on 17; 25 is the one the harness is checked on). Missing, the console
 * suites fail and say so; they never skip.
 */
final class KeycloakJava {

    private static final Path JVMS = Path.of("/usr/lib/jvm");

    private KeycloakJava() {
    }

    /** -Dtoolgate.keycloak.java-home, else the machine's Temurin 25, else any other Java 25 in /usr/lib/jvm. */
    static Path home() throws IOException {
        String configured = System.getProperty("toolgate.keycloak.java-home", "");
        List<Path> candidates = new ArrayList<>();
        if (!configured.isBlank()) {
            candidates.add(Path.of(configured)); // named: that one or none, never another behind the user's back
        } else {
            candidates.add(JVMS.resolve("temurin-25-jdk-amd64"));
            if (Files.isDirectory(JVMS)) {
                try (DirectoryStream<Path> jvms = Files.newDirectoryStream(JVMS, "*25*")) {
                    jvms.forEach(candidates::add);
                }
            }
        }
        return candidates.stream().filter(jdk -> Files.isExecutable(jdk.resolve("bin/java"))).findFirst()
                .orElseThrow(() -> new IllegalStateException("no Java 25 for Keycloak (tried " + candidates
                        + "): install a JDK 25, or name one with -Dtoolgate.keycloak.java-home"));
    }
}

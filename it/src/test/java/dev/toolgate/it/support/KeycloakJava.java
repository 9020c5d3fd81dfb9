package dev.toolgate.it.support;

import dev.toolgate.launcher.LocalKeycloak;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The JDK that runs Keycloak: a Java 25 of its own, not the tests' 17, so that a Keycloak that needs a newer Java
 * changes only this (26.7.3 still starts on 17; 25 is the one the harness is checked on). Missing, the console
 * suites fail and say so; they never skip.
 */
final class KeycloakJava {

    private KeycloakJava() {
    }

    /** -Dtoolgate.keycloak.java-home, else a Java 25 in /usr/lib/jvm: the local run's rule ({@link LocalKeycloak#java}). */
    static Path home() throws IOException {
        List<Path> tried = new ArrayList<>();
        return LocalKeycloak.java(tried).orElseThrow(() -> new IllegalStateException("no Java 25 for Keycloak (tried " + tried
                + "): install a JDK 25, or name one with -Dtoolgate.keycloak.java-home"));
    }
}

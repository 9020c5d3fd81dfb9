package dev.toolgate.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * {@code target/mcp-client}: the official MCP SDK clients and conformance suite from {@code src/test/mcp-client}, which
 * the build installs with {@code npm ci} in the background while the suites start (it/pom.xml; most of its 15 s is the
 * download). The first suite that runs node waits here for it to end: {@code npm-ci.exit} holds its exit status,
 * {@code npm-ci.log} what it said. A failed or missing install fails that suite, never skips it.
 */
public final class McpClient {

    public static final Path HOME = Path.of("target", "mcp-client");
    /** The install on a slow network and two busy cores; it takes about 15 s. */
    private static final Duration INSTALL = Duration.ofMinutes(10);
    /** How long the build's npm ci may take to show it started (its log), counted from the first look. */
    private static final Duration STARTING = Duration.ofSeconds(30);

    private static boolean installed;

    private McpClient() {
    }

    /** {@link #HOME}, once the build's npm ci has ended well; waits for it while it runs. */
    public static synchronized Path installed() {
        if (installed) {
            return HOME;
        }
        Path exit = HOME.resolve("npm-ci.exit");
        Path log = HOME.resolve("npm-ci.log");
        Instant looked = Instant.now();
        while (!Files.exists(exit)) {
            if (!Files.exists(log)) {
                if (Files.isDirectory(HOME.resolve("node_modules"))) {
                    installed = true; // installed by a build before the install ran in the background: as it was
                    return HOME;
                }
                if (Instant.now().isAfter(looked.plus(STARTING))) {
                    throw new IllegalStateException("no " + log + ": the build's npm ci (it/pom.xml) did not run"
                            + " (-Dmcp.client.skip=true?)");
                }
            } else if (Instant.now().isAfter(looked.plus(INSTALL))) {
                throw new IllegalStateException("the build's npm ci did not end within " + INSTALL + "; see " + log);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the build's npm ci", e);
            }
        }
        try {
            String status = Files.readString(exit).strip();
            if (!status.equals("0")) {
                List<String> said = Files.readAllLines(log, StandardCharsets.UTF_8);
                throw new IllegalStateException("the build's npm ci failed (exit " + status + "); the end of " + log + ":\n"
                        + String.join("\n", said.subList(Math.max(0, said.size() - 30), said.size())));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        installed = true;
        return HOME;
    }
}

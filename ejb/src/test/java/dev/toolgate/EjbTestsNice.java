package dev.toolgate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * The test JVM at nice 10 before any test runs, and with it every thread and process it starts later (the ITs'
 * PostgreSQL servers): in a full build these tests run beside the it module's suites, which wait on them for nothing,
 * and take only the CPU those leave idle. Linux keeps a niceness per thread, so each of the JVM's threads is set; a
 * thread or process started afterwards inherits its starter's. Where renice is missing the tests run as they are.
 */
public final class EjbTestsNice implements LauncherSessionListener {

    private static final Path RENICE = Path.of("/usr/bin/renice");
    private static final String NICENESS = "10";

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        if (!Files.isExecutable(RENICE)) {
            return;
        }
        List<String> command = new ArrayList<>(List.of(RENICE.toString(), "-n", NICENESS, "-p"));
        try (Stream<Path> threads = Files.list(Path.of("/proc/self/task"))) {
            threads.forEach(thread -> command.add(thread.getFileName().toString()));
            Process renice = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            renice.waitFor();
        } catch (IOException e) {
            // no /proc or no renice to run: the tests run at the niceness they have
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package dev.toolgate.it.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A release of this repository other than the one under test, built from its commit as its own build built it: the
 * commit's tree taken out of this clone's history ({@code git archive}, so nothing of it is kept in the tree) and its
 * Micro WAR packaged by Maven, with this build's settings (offline or not, the same local repository) and one thread.
 * The runtime folder it returns holds that WAR beside this build's {@code payara-micro.jar} — refused unless the release
 * names the same Payara Micro, so the pair under test is one that release shipped with — ready for
 * {@link TestStack#startGateway(Path, int, java.util.Map, String)}. Built once per commit into
 * {@code target/previous-release/}.
 */
public final class PreviousRelease {

    private static final long BUILD_MINUTES = 10;

    private PreviousRelease() {
    }

    /** The runtime folder of the release at {@code commit}, built if it is not yet. */
    public static Path runtime(String commit) throws IOException, InterruptedException {
        Path repository = Path.of(System.getProperty("toolgate.repository"));
        Path home = Path.of(System.getProperty("toolgate.previous-release")).resolve(commit.substring(0, 12));
        Path runtime = home.resolve("runtime");
        Path war = runtime.resolve("ROOT.war");
        if (Files.exists(war)) {
            return runtime;
        }
        SuiteTimings.started("build of release " + commit.substring(0, 12));
        Path log = home.resolve("build.log");
        Path source = home.resolve("source");
        dev.toolgate.launcher.LocalStack.deleteRecursively(source);
        Files.createDirectories(source);
        Files.createDirectories(runtime);
        if (run(repository, log, "git", "cat-file", "-e", commit + "^{commit}") != 0) {
            throw new IllegalStateException("the previous release's commit " + commit + " is not in this clone's history (a"
                    + " shallow clone? `git fetch --unshallow` brings it); see " + log);
        }
        if (run(repository, log, "bash", "-c", "set -o pipefail; git archive --format=tar " + commit + " | tar -x -C '" + source + "'") != 0) {
            throw new IllegalStateException("could not take release " + commit + " out of git; see " + log);
        }
        String itsMicro = property(source.resolve("pom.xml"), "payara.micro.version");
        String ours = property(repository.resolve("pom.xml"), "payara.micro.version");
        if (!itsMicro.equals(ours)) {
            throw new IllegalStateException("release " + commit + " shipped on Payara Micro " + itsMicro + ", this build has " + ours
                    + ": give the suite that release's Micro before moving PREVIOUS_RELEASE past a server upgrade");
        }
        // its Micro WAR and what that needs, as its own README builds it, its tests left to its own CI; one thread, since
        // the other lanes run meanwhile
        List<String> build = new ArrayList<>(List.of(maven(), "-B", "-ntp", "-q", "-T1", "package", "-Dmaven.test.skip=true",
                "-Dpgbouncer.install.skip=true", "-pl", "micro", "-am"));
        String repositoryLocal = System.getProperty("toolgate.maven.local-repository", "");
        if (!repositoryLocal.isBlank() && !repositoryLocal.contains("${")) {
            build.add("-Dmaven.repo.local=" + repositoryLocal);
        }
        if (System.getProperty("toolgate.maven.offline", "").endsWith("true")) {
            build.add("-o");
        }
        if (run(source, log, build.toArray(String[]::new)) != 0) {
            throw new IllegalStateException("release " + commit + " did not build; see " + log);
        }
        Files.copy(source.resolve("micro/target/toolgate.war"), runtime.resolve("ROOT.war.part"), StandardCopyOption.REPLACE_EXISTING);
        Path micro = runtime.resolve("payara-micro.jar");
        Files.deleteIfExists(micro);
        Files.createSymbolicLink(micro, TestStack.runtime().resolve("payara-micro.jar").toAbsolutePath());
        Files.move(runtime.resolve("ROOT.war.part"), war, StandardCopyOption.ATOMIC_MOVE); // last: its presence says the build is whole
        dev.toolgate.launcher.LocalStack.deleteRecursively(source);
        return runtime;
    }

    private static String maven() {
        String home = System.getProperty("maven.home");
        return home == null || home.isBlank() || home.contains("${") ? "mvn" : Path.of(home, "bin", "mvn").toString();
    }

    /** A property of a pom's {@code <properties>}, read as text: the release's own pom, not this build's model. */
    private static String property(Path pom, String name) throws IOException {
        java.util.regex.Matcher value = java.util.regex.Pattern.compile("<" + java.util.regex.Pattern.quote(name) + ">([^<]+)</")
                .matcher(Files.readString(pom));
        if (!value.find()) {
            throw new IllegalStateException(pom + " names no " + name);
        }
        return value.group(1).strip();
    }

    private static int run(Path directory, Path log, String... command) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of(command));
        Files.writeString(log, "$ " + String.join(" ", line) + "\n", java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
        Process process = new ProcessBuilder(line).directory(directory.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        if (!process.waitFor(BUILD_MINUTES, TimeUnit.MINUTES)) {
            process.destroyForcibly().waitFor();
            throw new IllegalStateException("gave up after " + BUILD_MINUTES + " min: " + line + "; see " + log);
        }
        return process.exitValue();
    }
}

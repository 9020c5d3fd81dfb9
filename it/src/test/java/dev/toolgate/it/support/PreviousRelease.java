package dev.toolgate.it.support;

import java.io.IOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestPlan;

/**
 * A release of this repository other than the one under test, built from its commit as its own build built it: the
 * commit's tree taken out of this clone's history ({@code git archive}, so nothing of it is kept in the tree) and its
 * Micro WAR packaged by Maven, with this build's settings (offline or not, the same local repository) and one thread.
 * The runtime folder it returns holds that WAR beside this build's {@code payara-micro.jar} — refused unless the release
 * names the same Payara Micro, so the pair under test is one that release shipped with — ready for
 * {@link TestStack#startGateway(Path, int, java.util.Map, String)}. Built once per commit into
 * {@code target/previous-release/}: in the background as the run begins when a suite of the run is marked
 * {@link UpgradesFrom} ({@link Early}), at a lower CPU priority than the suites, so that the suite finds it built.
 */
public final class PreviousRelease {

    private static final long BUILD_MINUTES = 10;
    /** A build started as the run begins yields the CPU to the suites: it runs meanwhile, not instead. */
    private static final String BACKGROUND_NICENESS = "10";
    private static final Map<String, CompletableFuture<Path>> BUILDS = new ConcurrentHashMap<>();

    private PreviousRelease() {
    }

    /**
     * A suite that upgrades from the release at {@link #value()} (or {@code -Dtoolgate.upgrade.from}, {@link #commit}):
     * a run that holds one builds that release in the background as it begins.
     */
    @Target(ElementType.TYPE)
    @Retention(RetentionPolicy.RUNTIME)
    public @interface UpgradesFrom {
        /** The commit of the release the suite upgrades from, as shipped. */
        String value();
    }

    /** The commit to upgrade from: {@code -Dtoolgate.upgrade.from}, else the one the suite ships with. */
    public static String commit(String shipped) {
        return System.getProperty("toolgate.upgrade.from", shipped);
    }

    /** Starts the build of the previous release when the run holds a suite marked {@link UpgradesFrom}. */
    public static final class Early implements TestExecutionListener {

        @Override
        public void testPlanExecutionStarted(TestPlan plan) {
            plan.getRoots().stream().flatMap(root -> plan.getDescendants(root).stream())
                    .map(test -> test.getSource().orElse(null))
                    .filter(source -> source instanceof ClassSource type && type.getJavaClass().isAnnotationPresent(UpgradesFrom.class))
                    .map(source -> commit(((ClassSource) source).getJavaClass().getAnnotation(UpgradesFrom.class).value()))
                    .distinct()
                    .forEach(commit -> BUILDS.computeIfAbsent(commit, c -> building(c, true)));
        }
    }

    /** The runtime folder of the release at {@code commit}: built, or being built in the background and waited for, or built now. */
    public static Path runtime(String commit) throws IOException, InterruptedException {
        try {
            return BUILDS.computeIfAbsent(commit, c -> building(c, false)).get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException("the build of release " + commit + " failed", cause);
        }
    }

    /** The build of {@code commit}, on a thread of its own (which the suite's timings charge the start to). */
    private static CompletableFuture<Path> building(String commit, boolean background) {
        CompletableFuture<Path> built = new CompletableFuture<>();
        Thread builder = new Thread(() -> {
            try {
                built.complete(build(commit, background));
            } catch (Throwable e) {
                built.completeExceptionally(e);
            }
        }, "build of release " + commit.substring(0, 12));
        builder.setDaemon(true);
        builder.start();
        return built;
    }

    private static Path build(String commit, boolean background) throws IOException, InterruptedException {
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
        List<String> build = new ArrayList<>();
        if (background && Files.isExecutable(Path.of("/usr/bin/nice"))) {
            build.addAll(List.of("/usr/bin/nice", "-n", BACKGROUND_NICENESS));
        }
        build.addAll(List.of(maven(), "-B", "-ntp", "-q", "-T1", "package", "-Dmaven.test.skip=true",
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
        ProcessBuilder builder = new ProcessBuilder(line).directory(directory.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        // Maven's own JVM, for a build of 20 s: C1 only, as the suites' other short-lived JVMs (LocalRunIT's Maven too)
        builder.environment().merge("MAVEN_OPTS", String.join(" ", dev.toolgate.launcher.LocalStack.SHORT_LIVED_JVM),
                (mine, ours) -> mine + " " + ours);
        Process process = builder.start();
        Thread stopAtExit = new Thread(process::destroyForcibly, "previous-release-stop"); // a run that ends meanwhile ends it
        Runtime.getRuntime().addShutdownHook(stopAtExit);
        try {
            if (!process.waitFor(BUILD_MINUTES, TimeUnit.MINUTES)) {
                process.destroyForcibly().waitFor();
                throw new IllegalStateException("gave up after " + BUILD_MINUTES + " min: " + line + "; see " + log);
            }
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(stopAtExit);
            } catch (IllegalStateException exiting) {
                // the JVM is exiting: the hook does its work
            }
        }
        return process.exitValue();
    }
}

package dev.toolgate.benchmark;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A peer's process (a JVM on the benchmark's class path, or the Restate server's binary), its own OS process so
 * its CPU is counted as the gateway's is; ready once it listens on its port.
 */
final class PeerProcess implements AutoCloseable {

    /** The gateway's heap (GatewayProcess): a peer JVM runs with the same. */
    private static final String HEAP = "-Xmx768m";
    private static final Duration START = Duration.ofSeconds(120);

    private final Process process;

    private PeerProcess(Process process) {
        this.process = process;
    }

    /** {@code main} of a peer class with {@code args}, in a JVM of its own, listening on {@code port}. */
    static PeerProcess java(Class<?> main, int port, Path log, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), HEAP,
                "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return started(new ProcessBuilder(command), port, log);
    }

    /** A native server: {@code command} with {@code environment}, listening on {@code port} once up. */
    static PeerProcess binary(List<String> command, Map<String, String> environment, int port, Path log)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        return started(builder, port, log);
    }

    private static PeerProcess started(ProcessBuilder builder, int port, Path log) throws IOException, InterruptedException {
        Process process = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + START.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException(builder.command().get(0) + " exited with " + process.exitValue() + " before listening on "
                        + port + "; see " + log);
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return new PeerProcess(process);
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        process.destroyForcibly().waitFor();
        throw new IOException(builder.command().get(0) + " did not listen on " + port + " within " + START + "; see " + log);
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}

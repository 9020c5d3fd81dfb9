package dev.toolgate.benchmark;

import dev.toolgate.launcher.LocalStack;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The simulators in a process of their own (so their CPU is not the load generator's), restartable on the same port
 * so the gateway's configuration stays right. A restart empties them, so every series starts from the same state
 * ({@link Measurements}'s {@code freshSimulators} warms the new process).
 */
final class SimulatorProcess implements AutoCloseable {

    private final int port;
    private final Path log;
    private Process process;

    SimulatorProcess(int port, Path log) throws IOException {
        this.port = port;
        this.log = log;
        this.process = LocalStack.simulators(port, log);
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    long pid() {
        return process.pid();
    }

    void restart() throws IOException, InterruptedException {
        process.destroy();
        process.waitFor();
        process = LocalStack.simulators(port, log);
    }

    @Override
    public void close() {
        process.destroy();
    }
}

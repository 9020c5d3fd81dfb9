package dev.toolgate.launcher;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * A gateway process leaves no root folder behind, however it ends: Micro unpacks about 110 MiB into it on each start,
 * and a suite that started dozens of gateways on their own ports once filled a CI machine's disk.
 */
class GatewayProcessTest {

    @TempDir
    Path runtime;

    @Test
    void anOrderlyStopRemovesTheRootFolderMicroUnpackedInto() throws Exception {
        assertNoRootAfter(GatewayProcess::close, "a stop");
    }

    @Test
    void aKilledGatewayLeavesNoRootFolderEither() throws Exception {
        assertNoRootAfter(GatewayProcess::kill, "a kill");
    }

    private interface Ending {
        void end(GatewayProcess gateway) throws Exception;
    }

    private void assertNoRootAfter(Ending ending, String what) throws Exception {
        int port = LocalStack.freePort();
        ending.end(started(port));
        assertFalse(Files.exists(runtime.resolve("instance-" + port)), "the root folder is gone after " + what);
    }

    @Test
    void aGatewayReplacedOnItsPortLeavesItsSuccessorsRootAlone() throws Exception {
        int port = LocalStack.freePort();
        GatewayProcess crashed = started(port);
        crashed.kill();
        GatewayProcess successor = started(port);
        crashed.close(); // a suite closing every gateway it made, the crashed one last
        assertTrue(Files.exists(runtime.resolve("instance-" + port).resolve("ready")), "the running successor keeps its root");
        successor.close();
        assertFalse(Files.exists(runtime.resolve("instance-" + port)));
    }

    private GatewayProcess started(int port) throws IOException {
        fakeMicro();
        Files.writeString(runtime.resolve("ROOT.war"), "not read");
        GatewayProcess gateway = new GatewayProcess(runtime, port, Map.of(), runtime.resolve("gateway.log")).start();
        Path ready = runtime.resolve("instance-" + port).resolve("ready");
        Instant deadline = Instant.now().plus(Duration.ofMinutes(1));
        while (!Files.exists(ready) && Instant.now().isBefore(deadline)) {
            LocalStack.pause(Duration.ofMillis(50));
        }
        assertTrue(Files.exists(ready), "the stand-in filled its root folder; see " + Files.readString(runtime.resolve("gateway.log")));
        return gateway;
    }

    /** {@code payara-micro.jar}: a jar whose main class is {@link UnpackingMain}. */
    private void fakeMicro() throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, UnpackingMain.class.getName());
        String entry = UnpackingMain.class.getName().replace('.', '/') + ".class";
        try (OutputStream file = Files.newOutputStream(runtime.resolve("payara-micro.jar"));
             JarOutputStream jar = new JarOutputStream(file, manifest);
             InputStream bytes = UnpackingMain.class.getClassLoader().getResourceAsStream(entry)) {
            jar.putNextEntry(new JarEntry(entry));
            bytes.transferTo(jar);
            jar.closeEntry();
        }
    }
}

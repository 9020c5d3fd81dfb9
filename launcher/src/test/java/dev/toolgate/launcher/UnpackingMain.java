package dev.toolgate.launcher;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Stands in for {@code payara-micro.jar} in {@link GatewayProcessTest}: fills the {@code --rootdir} it is given, as Micro
 * unpacks itself there, then waits to be stopped or killed.
 */
final class UnpackingMain {

    private UnpackingMain() {
    }

    public static void main(String[] args) throws Exception {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--rootdir")) {
                Path root = Files.createDirectories(Path.of(args[i + 1]).resolve("runtime"));
                Files.write(root.resolve("unpacked.jar"), new byte[64 * 1024]);
                Files.writeString(root.getParent().resolve("ready"), "unpacked");
            }
        }
        Thread.sleep(Long.MAX_VALUE);
    }
}

package dev.toolgate.benchmark;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Packs the floor endpoints into {@code floor.war} at run time: their classes from this module, the
 * PostgreSQL driver, and a web.xml whose datasource points at this run's database with the pool bounds
 * the gateway's journal uses (JournalSchema), so the one-read floor pays for the same kind of pool.
 */
final class FloorWar {

    private FloorWar() {
    }

    static Path write(Path folder, String host, int port, String database) throws IOException {
        Path war = folder.resolve("floor.war");
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(war))) {
            // by name: loading the classes here would need the Jakarta API, which only the server has
            for (String type : List.of("FloorEndpoints", "FloorApplication")) {
                String name = "dev/toolgate/benchmark/floor/" + type + ".class";
                try (InputStream bytes = FloorWar.class.getClassLoader().getResourceAsStream(name)) {
                    entry(zip, "WEB-INF/classes/" + name, bytes.readAllBytes());
                }
            }
            entry(zip, "WEB-INF/lib/postgresql.jar", Files.readAllBytes(driverJar()));
            entry(zip, "WEB-INF/web.xml", webXml(host, port, database).getBytes(StandardCharsets.UTF_8));
        }
        return war;
    }

    private static String webXml(String host, int port, String database) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<web-app xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"6.0\">\n"
                + "  <data-source>\n"
                + "    <name>java:app/jdbc/floor</name>\n"
                + "    <class-name>org.postgresql.ds.PGSimpleDataSource</class-name>\n"
                + "    <server-name>" + host + "</server-name>\n"
                + "    <port-number>" + port + "</port-number>\n"
                + "    <database-name>" + database + "</database-name>\n"
                + "    <user>postgres</user>\n"
                + "    <password>postgres</password>\n"
                + "    <min-pool-size>2</min-pool-size>\n"
                + "    <max-pool-size>32</max-pool-size>\n"
                + "  </data-source>\n"
                + "</web-app>\n";
    }

    private static Path driverJar() {
        try {
            return Path.of(org.postgresql.Driver.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void entry(ZipOutputStream zip, String name, byte[] bytes) throws IOException {
        zip.putNextEntry(new ZipEntry(name));
        OutputStream out = zip;
        out.write(bytes);
        zip.closeEntry();
    }
}

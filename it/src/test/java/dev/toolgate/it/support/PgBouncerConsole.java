package dev.toolgate.it.support;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * PgBouncer's admin console (its database {@code pgbouncer}), asked one {@code SHOW} command over PostgreSQL's simple
 * query protocol (the PostgreSQL documentation's "Frontend/Backend Protocol"). Not through the JDBC driver: the console
 * reports a server version below 9.0, so the driver sets {@code extra_float_digits} after logging in, or sends it at
 * start-up when told the version is newer, and the console refuses either ("unknown parameter").
 */
final class PgBouncerConsole {

    private static final int PROTOCOL_3 = 196_608;

    private PgBouncerConsole() {
    }

    /** The rows {@code command} answers with, each by column name; an error the console answers with is thrown. */
    static List<Map<String, String>> show(int port, String user, String command) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(10_000);
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream())); // one message, one write
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] startup = cstrings("user", user, "database", "pgbouncer", "");
            out.writeInt(8 + startup.length);
            out.writeInt(PROTOCOL_3);
            out.write(startup);
            out.flush();
            readUntilReady(in, new ArrayList<>());
            byte[] query = cstrings(command);
            out.writeByte('Q');
            out.writeInt(4 + query.length);
            out.write(query);
            out.flush();
            List<Map<String, String>> rows = new ArrayList<>();
            readUntilReady(in, rows);
            out.writeByte('X');
            out.writeInt(4);
            out.flush();
            return rows;
        }
    }

    /** Reads messages up to ReadyForQuery, collecting the data rows under the last row description's names. */
    private static void readUntilReady(DataInputStream in, List<Map<String, String>> rows) throws IOException {
        List<String> columns = List.of();
        while (true) {
            byte type = in.readByte();
            ByteBuffer body = ByteBuffer.wrap(in.readNBytes(in.readInt() - 4));
            switch (type) {
                case 'Z' -> {
                    return;
                }
                case 'E' -> throw new IOException("PgBouncer's console refused: " + StandardCharsets.UTF_8.decode(body).toString().replace('\0', ' ').trim());
                case 'R' -> {
                    if (body.getInt() != 0) {
                        throw new IOException("PgBouncer's console asks for a password: the suites' PgBouncer trusts its clients");
                    }
                }
                case 'T' -> columns = columns(body);
                case 'D' -> rows.add(row(body, columns));
                default -> {
                    // parameter status, backend key, command complete, notices: nothing to keep
                }
            }
        }
    }

    private static List<String> columns(ByteBuffer body) {
        List<String> names = new ArrayList<>();
        for (int n = body.getShort(); n > 0; n--) {
            names.add(cstring(body));
            body.position(body.position() + 18); // table, column, type, size, modifier, format
        }
        return names;
    }

    private static Map<String, String> row(ByteBuffer body, List<String> columns) {
        Map<String, String> row = new LinkedHashMap<>();
        for (int i = 0, n = body.getShort(); i < n; i++) {
            int length = body.getInt();
            byte[] value = new byte[Math.max(0, length)];
            body.get(value);
            row.put(columns.get(i), length < 0 ? null : new String(value, StandardCharsets.UTF_8));
        }
        return row;
    }

    private static String cstring(ByteBuffer body) {
        int start = body.position();
        while (body.get() != 0) {
            // to the terminating zero
        }
        return new String(body.array(), start, body.position() - start - 1, StandardCharsets.UTF_8);
    }

    private static byte[] cstrings(String... values) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (String value : values) {
            bytes.writeBytes(value.getBytes(StandardCharsets.UTF_8));
            bytes.write(0);
        }
        return bytes.toByteArray();
    }
}

package dev.toolgate.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * No statement of the product returns {@code *} of a journal table (docs/operations.md, Upgrading): a running release
 * keeps its statements prepared on the server, and once a newer release's migration adds a column PostgreSQL refuses
 * to run one whose result would change shape. AddedColumnIT shows it on the operation statements it lists; this holds
 * every statement in the main code of ejb, batch and web to it, whichever table it reads, so a new one cannot slip by.
 * The tables are the ones the migrations create; {@code *} of a CTE, whose columns its statement names, is fine.
 */
class NamedResultsTest {

    private static final Pattern TABLE = Pattern.compile("CREATE TABLE (?:IF NOT EXISTS )?(\\w+)", Pattern.CASE_INSENSITIVE);

    @Test
    void noStatementReturnsEveryColumnOfAJournalTable() throws Exception {
        Set<String> tables = tables();
        assertTrue(tables.containsAll(Set.of("agent_operation_log", "operation_event", "process_run", "operation_approval")), tables.toString());
        String names = String.join("|", tables);
        Pattern star = Pattern.compile("(?i)RETURNING\\s+(\\w+\\.)?\\*|SELECT\\s+(\\w+\\.)?\\*\\s+FROM\\s+(" + names + ")\\b");
        List<String> found = new ArrayList<>();
        Path root = Path.of(System.getProperty("user.dir")).getParent(); // the ejb module's folder's parent: the repository
        for (String module : List.of("ejb", "batch", "web")) {
            try (Stream<Path> files = Files.walk(root.resolve(module).resolve("src/main/java"))) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    List<String> lines = Files.readAllLines(file);
                    for (int i = 0; i < lines.size(); i++) {
                        Matcher m = star.matcher(lines.get(i));
                        if (m.find()) {
                            found.add(root.relativize(file) + ":" + (i + 1) + ": " + lines.get(i).strip());
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), found, "statements returning * of a table: name the columns (OperationRows.RETURNING)");
    }

    @Test
    void theScanCatchesWhatItLooksFor() {
        Pattern star = Pattern.compile("(?i)RETURNING\\s+(\\w+\\.)?\\*|SELECT\\s+(\\w+\\.)?\\*\\s+FROM\\s+(agent_operation_log)\\b");
        assertTrue(star.matcher("\" WHERE tenant = ?3 RETURNING *),\"").find());
        assertTrue(star.matcher("\" FROM claimed c WHERE o.tenant = c.tenant RETURNING o.*),\"").find());
        assertTrue(star.matcher("\"SELECT * FROM agent_operation_log WHERE\"").find());
        assertTrue(!star.matcher("\" SELECT * FROM settled\"").find(), "a CTE names its columns");
        assertTrue(!star.matcher("\"SELECT count(*) FROM agent_operation_log\"").find());
    }

    private static Set<String> tables() throws IOException, URISyntaxException {
        Set<String> tables = new TreeSet<>();
        Path folder = Path.of(NamedResultsTest.class.getClassLoader().getResource("db/migration").toURI());
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".sql")).toList()) {
                Matcher m = TABLE.matcher(Files.readString(file));
                while (m.find()) {
                    tables.add(m.group(1).toLowerCase(java.util.Locale.ROOT));
                }
            }
        }
        return tables;
    }
}

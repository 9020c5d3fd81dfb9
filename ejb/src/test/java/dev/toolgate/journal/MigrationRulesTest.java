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
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The rule of docs/operations.md, "Upgrading", held by the build: from V12 on every migration declares the oldest
 * release it keeps working ({@code journal_compatibility}), and one that removes or renames anything — which breaks the
 * release before it — must declare that it does (its own version: a contract step, shipped a release after the code
 * stopped using what it removes). {@link #findsTheBreakingStatements} shows each check catching a planted violation.
 */
class MigrationRulesTest {

    private static final int FIRST_DECLARED = 12;
    private static final Pattern FILE = Pattern.compile("V(\\d+)__.*\\.sql");
    private static final Pattern DECLARED = Pattern.compile(
            "INSERT INTO journal_compatibility \\(schema_version, oldest_compatible\\) VALUES \\((\\d+), (\\d+)\\)");
    /** What breaks code written for the schema before: a column, table or constraint it uses gone, renamed or retyped. */
    private static final Pattern BREAKING = Pattern.compile(
            "\\bDROP\\s+(COLUMN|TABLE|VIEW)\\b|\\bRENAME\\b|\\bALTER\\s+COLUMN\\s+\\S+\\s+(TYPE|SET\\s+NOT\\s+NULL)\\b|\\bADD\\s+COLUMN\\s+[^;]*\\bNOT\\s+NULL\\b(?![^;]*\\bDEFAULT\\b)",
            Pattern.CASE_INSENSITIVE);

    @Test
    void everyMigrationDeclaresWhichReleasesItKeepsWorking() throws Exception {
        List<String> wrong = new ArrayList<>();
        for (Path file : migrations()) {
            Matcher name = FILE.matcher(file.getFileName().toString());
            assertTrue(name.matches(), file.toString());
            int version = Integer.parseInt(name.group(1));
            if (version >= FIRST_DECLARED) {
                wrong.addAll(problems(version, Files.readString(file)));
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void findsTheBreakingStatements() {
        String declared = "INSERT INTO journal_compatibility (schema_version, oldest_compatible) VALUES (13, 12);";
        assertEquals(List.of(), problems(13, "ALTER TABLE t ADD COLUMN c text;\n" + declared));
        assertEquals(List.of(), problems(13, "ALTER TABLE t ADD COLUMN c integer NOT NULL DEFAULT 1;\n" + declared));
        assertEquals(1, problems(13, "ALTER TABLE t ADD COLUMN c text;").size(), "undeclared");
        assertEquals(1, problems(13, "ALTER TABLE t DROP COLUMN c;\n" + declared).size(), "a drop said to keep 12 working");
        assertEquals(1, problems(13, "ALTER TABLE t RENAME COLUMN c TO d;\n" + declared).size());
        assertEquals(1, problems(13, "ALTER TABLE t ALTER COLUMN c TYPE bigint;\n" + declared).size());
        assertEquals(1, problems(13, "ALTER TABLE t ADD COLUMN c text NOT NULL;\n" + declared).size());
        assertEquals(List.of(), problems(13, "ALTER TABLE t DROP COLUMN c;\n"
                + "INSERT INTO journal_compatibility (schema_version, oldest_compatible) VALUES (13, 13);"), "a declared contract step");
        assertEquals(1, problems(13, "INSERT INTO journal_compatibility (schema_version, oldest_compatible) VALUES (12, 11);").size(),
                "declared for another version");
    }

    private static List<String> problems(int version, String sql) {
        String code = sql.replaceAll("--[^\\n]*", ""); // comments may say anything
        Matcher declared = DECLARED.matcher(code);
        if (!declared.find() || Integer.parseInt(declared.group(1)) != version) {
            return List.of("V" + version + " does not declare, for itself, the oldest release it keeps working");
        }
        int oldest = Integer.parseInt(declared.group(2));
        Matcher breaking = BREAKING.matcher(code);
        if (breaking.find() && oldest < version) {
            return List.of("V" + version + " declares release " + oldest + " still works but " + breaking.group().toUpperCase(Locale.ROOT)
                    + " breaks it: ship the removal as a contract step (oldest_compatible " + version + ") a release later");
        }
        return List.of();
    }

    private static List<Path> migrations() throws IOException, URISyntaxException {
        Path folder = Path.of(MigrationRulesTest.class.getClassLoader().getResource("db/migration").toURI());
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(f -> f.toString().endsWith(".sql")).sorted().toList();
        }
    }
}

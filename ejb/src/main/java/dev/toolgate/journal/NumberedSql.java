package dev.toolgate.journal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A journal statement written with numbered parameters ({@code ?1}, {@code ?2} …, as a JPA native query
 * binds them, a number used as often as the statement needs it), run by plain JDBC, which knows only
 * positional {@code ?}. Parsed once, where the statement is declared; binding is an array walk. The
 * statements hold no {@code ?} of their own in a string literal.
 *
 * <p>The journal's hot statements run this way on their phase's own connection ({@link JournalConnections#of}):
 * through EclipseLink a native query that returns rows costs more than the statement itself (mapping every
 * returned column onto an entity and refreshing it).
 */
public final class NumberedSql {

    private static final Pattern NUMBERED = Pattern.compile("\\?(\\d+)");

    private final String jdbc;
    private final int[] numberAt;

    private NumberedSql(String jdbc, int[] numberAt) {
        this.jdbc = jdbc;
        this.numberAt = numberAt;
    }

    public static NumberedSql of(String numbered) {
        Matcher m = NUMBERED.matcher(numbered);
        StringBuilder jdbc = new StringBuilder();
        int[] numbers = new int[numbered.length()];
        int n = 0;
        while (m.find()) {
            numbers[n++] = Integer.parseInt(m.group(1));
            m.appendReplacement(jdbc, "?");
        }
        m.appendTail(jdbc);
        return new NumberedSql(jdbc.toString(), Arrays.copyOf(numbers, n));
    }

    /** The statement as JDBC takes it. */
    public String jdbc() {
        return jdbc;
    }

    /** The number each positional parameter stands for, in order. */
    int[] numberAt() {
        return numberAt.clone();
    }

    /** The highest parameter number the statement uses. */
    public int parameters() {
        return Arrays.stream(numberAt).max().orElse(0);
    }

    /**
     * The statement prepared on {@code connection}, each occurrence of {@code ?N} bound to {@code byNumber[N - 1]}.
     * A null is bound untyped, so PostgreSQL takes the type from where it stands (a column, a CAST).
     */
    public PreparedStatement prepare(Connection connection, Object... byNumber) throws SQLException {
        if (byNumber.length != parameters()) {
            throw new IllegalArgumentException("the statement takes " + parameters() + " parameters, given " + byNumber.length);
        }
        PreparedStatement statement = connection.prepareStatement(jdbc);
        try {
            for (int i = 0; i < numberAt.length; i++) {
                statement.setObject(i + 1, byNumber[numberAt[i] - 1]);
            }
            return statement;
        } catch (SQLException | RuntimeException e) {
            statement.close();
            throw e;
        }
    }
}

package dev.toolgate.journal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A journal statement with numbered parameters ({@code ?1}, reusable, as a JPA native query binds them) run by plain
 * JDBC, which knows only positional {@code ?}; parsed once where declared. The hot statements run this way because
 * through EclipseLink a native query returning rows costs more than the statement itself.
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

    public String jdbc() {
        return jdbc;
    }

    int[] numberAt() {
        return numberAt.clone();
    }

    public int parameters() {
        return Arrays.stream(numberAt).max().orElse(0);
    }

    /** Each {@code ?N} bound to {@code byNumber[N - 1]}; a null is bound untyped, so PostgreSQL types it from where it stands. */
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

package dev.toolgate.journal;

import javax.sql.DataSource;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A datasource that remembers every statement prepared through it with the parameters bound to it, so a test can
 * ask PostgreSQL how it plans exactly what a bean ran (EclipseLink writes the SQL of a JPQL query; this reads it back).
 */
public final class StatementRecorder {

    /** One prepared statement: its SQL and each {@code setX(index, value…)} call made on it, in order. */
    public record Prepared(String sql, List<Bound> parameters) {
    }

    public record Bound(Method setter, Object[] arguments) {
    }

    private final List<Prepared> prepared = new CopyOnWriteArrayList<>();
    private final DataSource recording;

    public StatementRecorder(DataSource target) {
        recording = proxy(DataSource.class, target, (method, result, args) ->
                result instanceof Connection c ? proxy(Connection.class, c, this::statement) : result);
    }

    public DataSource dataSource() {
        return recording;
    }

    /** The last statement prepared whose SQL starts with {@code prefix} (case-insensitive). */
    public Prepared last(String prefix) {
        for (int i = prepared.size() - 1; i >= 0; i--) {
            if (prepared.get(i).sql().regionMatches(true, 0, prefix, 0, prefix.length())) {
                return prepared.get(i);
            }
        }
        throw new AssertionError("no statement starting " + prefix + " among " + prepared);
    }

    public void clear() {
        prepared.clear();
    }

    /** The SQL of every statement prepared since the last {@link #clear()}, in order. */
    public List<String> statements() {
        return prepared.stream().map(Prepared::sql).toList();
    }

    /** PostgreSQL's plan of {@code statement}, with the parameters it was run with. */
    public static String explain(Connection connection, Prepared statement) throws SQLException {
        try (PreparedStatement explain = connection.prepareStatement("EXPLAIN " + statement.sql())) {
            for (Bound bound : statement.parameters()) {
                try {
                    bound.setter().invoke(explain, bound.arguments());
                } catch (IllegalAccessException | InvocationTargetException e) {
                    throw new SQLException("could not bind " + bound.setter().getName(), e);
                }
            }
            StringBuilder plan = new StringBuilder();
            try (ResultSet lines = explain.executeQuery()) {
                while (lines.next()) {
                    plan.append(lines.getString(1)).append('\n');
                }
            }
            return plan.toString();
        }
    }

    private Object statement(Method method, Object result, Object[] args) {
        if (method.getName().equals("prepareStatement") && result instanceof PreparedStatement statement) {
            Prepared record = new Prepared((String) args[0], new ArrayList<>());
            prepared.add(record);
            return proxy(PreparedStatement.class, statement, (m, r, a) -> {
                if (m.getName().startsWith("set") && a != null && a.length >= 2 && a[0] instanceof Integer) {
                    record.parameters().add(new Bound(m, a.clone()));
                }
                return r;
            });
        }
        return result;
    }

    /** What to make of the result of each call the proxy passed on. */
    private interface Wrapping {
        Object wrap(Method method, Object result, Object[] args);
    }

    private static <T> T proxy(Class<T> type, T target, Wrapping wrapping) {
        InvocationHandler handler = (self, method, args) -> {
            try {
                return wrapping.wrap(method, method.invoke(target, args), args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return type.cast(Proxy.newProxyInstance(StatementRecorder.class.getClassLoader(), new Class<?>[] {type}, handler));
    }
}

package dev.toolgate.platform;

import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * LISTEN announcements and the start-up backend key of a pooled connection, through the driver's own API called by
 * name: a server-managed pool may run its own copy of the driver (WildFly's), which cannot be unwrapped to ours.
 * Still needed: {@code NotificationsIT}, {@code EarOnWildFlyIT}.
 */
public final class Notifications {

    private static final String API = "org.postgresql.PGConnection";

    private final PGConnection ours;
    private final Object theirs;
    private final Method getNotifications;
    private final Method getParameter;
    private final Method getBackendPid;

    private Notifications(PGConnection ours, Object theirs, Method getNotifications, Method getParameter, Method getBackendPid) {
        this.ours = ours;
        this.theirs = theirs;
        this.getNotifications = getNotifications;
        this.getParameter = getParameter;
        this.getBackendPid = getBackendPid;
    }

    public static Notifications on(Connection connection) throws SQLException {
        if (connection.isWrapperFor(PGConnection.class)) {
            return new Notifications(connection.unwrap(PGConnection.class), null, null, null, null);
        }
        Connection driver = connection.getMetaData().getConnection();
        try {
            Class<?> api = Class.forName(API, false, driver.getClass().getClassLoader());
            if (!api.isInstance(driver)) {
                throw new SQLException("the journal's connection is not PostgreSQL's (" + driver.getClass().getName() + "): it cannot LISTEN");
            }
            Class<?> notification = Class.forName("org.postgresql.PGNotification", false, api.getClassLoader());
            return new Notifications(null, driver, api.getMethod("getNotifications", int.class), notification.getMethod("getParameter"),
                    api.getMethod("getBackendPID"));
        } catch (ReflectiveOperationException e) {
            throw new SQLException("the driver of the journal's pool has no notification API this listener knows", e);
        }
    }

    /** The payloads of the announcements delivered, waiting up to {@code millis} for the first (empty: none came). */
    public List<String> await(int millis) throws SQLException {
        List<String> payloads = new ArrayList<>();
        if (ours != null) {
            PGNotification[] delivered = ours.getNotifications(millis);
            if (delivered != null) {
                for (PGNotification notification : delivered) {
                    payloads.add(notification.getParameter());
                }
            }
            return payloads;
        }
        Object delivered = call(getNotifications, theirs, millis);
        if (delivered != null) {
            for (Object notification : (Object[]) delivered) {
                payloads.add((String) call(getParameter, notification));
            }
        }
        return payloads;
    }

    /** The backend key the server sent at start (0 if none); a pooler names a key of its own ({@code access.PoolerCheck}). */
    public int startupPid() throws SQLException {
        return ours != null ? ours.getBackendPID() : (Integer) call(getBackendPid, theirs);
    }

    private static Object call(Method method, Object target, Object... arguments) throws SQLException {
        try {
            return method.invoke(target, arguments);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof SQLException sql) {
                throw sql; // a lost connection stays one: the listener reconnects
            }
            throw new SQLException("the driver failed reading notifications", e.getCause());
        } catch (IllegalAccessException e) {
            throw new SQLException("the driver's notification API is not accessible", e);
        }
    }
}

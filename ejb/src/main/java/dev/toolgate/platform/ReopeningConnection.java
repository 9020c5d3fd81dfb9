package dev.toolgate.platform;

import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Struct;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * A connection of {@link JournalDataSource} that, when the pool hands it out, replaces a PostgreSQL session that
 * ended (a restart, a terminated backend) with a new one given the same settings; everything else passes through.
 *
 * <p>Why: WildFly builds the pool of the EAR's {@code @DataSourceDefinition} with no way to ask for validation, so it
 * hands a dead connection out again (docs/database-outage.md); it does call {@link #beginRequest}. Payara validates
 * itself and does not call that. If no new session can be opened the dead one stays and fails as an outage (503).
 * Public, as WildFly finds {@code beginRequest} by a public lookup. Still needed: {@code ReopeningConnectionIT},
 * {@code EarOnWildFlyWithItsOwnDataSourceIT}.
 */
public final class ReopeningConnection implements Connection {

    @FunctionalInterface
    interface Sessions {
        Connection open() throws SQLException;
    }

    private static final Logger LOG = Logger.getLogger(ReopeningConnection.class.getName());
    /** A busy pool hands a connection out hundreds of times a second: one proof a second is enough. */
    static final long CHECK_EVERY_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Sessions sessions;
    private final int checkTimeoutSeconds;
    private Connection session;
    private long checkedAt;

    // what the pool and the application asked of the session, given to a new one; null: never asked
    private Boolean autoCommit;
    private Boolean readOnly;
    private Integer isolation;
    private Integer holdability;
    private String catalog;
    private String schema;
    private Map<String, Class<?>> typeMap;
    private Executor networkTimeoutExecutor;
    private Integer networkTimeoutMillis;
    private final Properties clientInfo = new Properties();

    ReopeningConnection(Connection session, Sessions sessions, int checkTimeoutSeconds) {
        this.session = session;
        this.sessions = sessions;
        this.checkTimeoutSeconds = checkTimeoutSeconds;
        this.checkedAt = System.nanoTime(); // just opened: alive
    }

    /** The pool hands this connection out: a session PostgreSQL ended is replaced now, before anyone uses it. */
    @Override
    public void beginRequest() throws SQLException {
        long now = System.nanoTime();
        if (now - checkedAt < CHECK_EVERY_NANOS) {
            return;
        }
        if (session.isValid(checkTimeoutSeconds)) {
            checkedAt = now;
            return;
        }
        Connection fresh = sessions.open(); // PostgreSQL still away: thrown to the pool, the dead session stays
        try {
            carryOver(fresh);
        } catch (SQLException | RuntimeException e) {
            closeQuietly(fresh);
            throw e;
        }
        closeQuietly(session);
        session = fresh;
        checkedAt = System.nanoTime();
        LOG.info("a pooled journal connection whose session PostgreSQL had ended was given a new session");
    }

    @Override
    public void endRequest() throws SQLException {
        session.endRequest();
    }

    private void carryOver(Connection fresh) throws SQLException {
        if (typeMap != null) {
            fresh.setTypeMap(typeMap);
        }
        if (catalog != null) {
            fresh.setCatalog(catalog);
        }
        if (schema != null) {
            fresh.setSchema(schema);
        }
        if (holdability != null) {
            fresh.setHoldability(holdability);
        }
        if (isolation != null) {
            fresh.setTransactionIsolation(isolation);
        }
        if (readOnly != null) {
            fresh.setReadOnly(readOnly);
        }
        if (networkTimeoutMillis != null) {
            fresh.setNetworkTimeout(networkTimeoutExecutor, networkTimeoutMillis);
        }
        if (!clientInfo.isEmpty()) {
            fresh.setClientInfo(clientInfo);
        }
        if (autoCommit != null) {
            fresh.setAutoCommit(autoCommit);
        }
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException | RuntimeException ignored) {
            // a dead session has nothing left to release
        }
    }

    // settings: remembered as asked (before the session answers), so that a new session matches what the caller believes

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        this.autoCommit = autoCommit;
        session.setAutoCommit(autoCommit);
    }

    @Override
    public void setReadOnly(boolean readOnly) throws SQLException {
        this.readOnly = readOnly;
        session.setReadOnly(readOnly);
    }

    @Override
    public void setTransactionIsolation(int level) throws SQLException {
        this.isolation = level;
        session.setTransactionIsolation(level);
    }

    @Override
    public void setHoldability(int holdability) throws SQLException {
        this.holdability = holdability;
        session.setHoldability(holdability);
    }

    @Override
    public void setCatalog(String catalog) throws SQLException {
        this.catalog = catalog;
        session.setCatalog(catalog);
    }

    @Override
    public void setSchema(String schema) throws SQLException {
        this.schema = schema;
        session.setSchema(schema);
    }

    @Override
    public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
        this.typeMap = map;
        session.setTypeMap(map);
    }

    @Override
    public void setClientInfo(String name, String value) throws SQLClientInfoException {
        if (value == null) {
            clientInfo.remove(name);
        } else {
            clientInfo.setProperty(name, value);
        }
        session.setClientInfo(name, value);
    }

    @Override
    public void setClientInfo(Properties properties) throws SQLClientInfoException {
        clientInfo.clear();
        if (properties != null) {
            clientInfo.putAll(properties);
        }
        session.setClientInfo(properties);
    }

    @Override
    public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
        this.networkTimeoutExecutor = executor;
        this.networkTimeoutMillis = milliseconds;
        session.setNetworkTimeout(executor, milliseconds);
    }

    // the rest is the session's

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return type.isInstance(this) ? type.cast(this) : session.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return type.isInstance(this) || session.isWrapperFor(type);
    }

    @Override
    public Statement createStatement() throws SQLException {
        return session.createStatement();
    }

    @Override
    public PreparedStatement prepareStatement(String sql) throws SQLException {
        return session.prepareStatement(sql);
    }

    @Override
    public CallableStatement prepareCall(String sql) throws SQLException {
        return session.prepareCall(sql);
    }

    @Override
    public String nativeSQL(String sql) throws SQLException {
        return session.nativeSQL(sql);
    }

    @Override
    public boolean getAutoCommit() throws SQLException {
        return session.getAutoCommit();
    }

    @Override
    public void commit() throws SQLException {
        session.commit();
    }

    @Override
    public void rollback() throws SQLException {
        session.rollback();
    }

    @Override
    public void close() throws SQLException {
        session.close();
    }

    @Override
    public boolean isClosed() throws SQLException {
        return session.isClosed();
    }

    @Override
    public DatabaseMetaData getMetaData() throws SQLException {
        return session.getMetaData();
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        return session.isReadOnly();
    }

    @Override
    public String getCatalog() throws SQLException {
        return session.getCatalog();
    }

    @Override
    public int getTransactionIsolation() throws SQLException {
        return session.getTransactionIsolation();
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        return session.getWarnings();
    }

    @Override
    public void clearWarnings() throws SQLException {
        session.clearWarnings();
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency) throws SQLException {
        return session.createStatement(resultSetType, resultSetConcurrency);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency) throws SQLException {
        return session.prepareStatement(sql, resultSetType, resultSetConcurrency);
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency) throws SQLException {
        return session.prepareCall(sql, resultSetType, resultSetConcurrency);
    }

    @Override
    public Map<String, Class<?>> getTypeMap() throws SQLException {
        return session.getTypeMap();
    }

    @Override
    public int getHoldability() throws SQLException {
        return session.getHoldability();
    }

    @Override
    public Savepoint setSavepoint() throws SQLException {
        return session.setSavepoint();
    }

    @Override
    public Savepoint setSavepoint(String name) throws SQLException {
        return session.setSavepoint(name);
    }

    @Override
    public void rollback(Savepoint savepoint) throws SQLException {
        session.rollback(savepoint);
    }

    @Override
    public void releaseSavepoint(Savepoint savepoint) throws SQLException {
        session.releaseSavepoint(savepoint);
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency, int resultSetHoldability) throws SQLException {
        return session.createStatement(resultSetType, resultSetConcurrency, resultSetHoldability);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency, int resultSetHoldability)
            throws SQLException {
        return session.prepareStatement(sql, resultSetType, resultSetConcurrency, resultSetHoldability);
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency, int resultSetHoldability)
            throws SQLException {
        return session.prepareCall(sql, resultSetType, resultSetConcurrency, resultSetHoldability);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
        return session.prepareStatement(sql, autoGeneratedKeys);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
        return session.prepareStatement(sql, columnIndexes);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
        return session.prepareStatement(sql, columnNames);
    }

    @Override
    public Clob createClob() throws SQLException {
        return session.createClob();
    }

    @Override
    public Blob createBlob() throws SQLException {
        return session.createBlob();
    }

    @Override
    public NClob createNClob() throws SQLException {
        return session.createNClob();
    }

    @Override
    public SQLXML createSQLXML() throws SQLException {
        return session.createSQLXML();
    }

    @Override
    public boolean isValid(int timeout) throws SQLException {
        return session.isValid(timeout);
    }

    @Override
    public String getClientInfo(String name) throws SQLException {
        return session.getClientInfo(name);
    }

    @Override
    public Properties getClientInfo() throws SQLException {
        return session.getClientInfo();
    }

    @Override
    public Array createArrayOf(String typeName, Object[] elements) throws SQLException {
        return session.createArrayOf(typeName, elements);
    }

    @Override
    public Struct createStruct(String typeName, Object[] attributes) throws SQLException {
        return session.createStruct(typeName, attributes);
    }

    @Override
    public String getSchema() throws SQLException {
        return session.getSchema();
    }

    @Override
    public void abort(Executor executor) throws SQLException {
        session.abort(executor);
    }


    @Override
    public int getNetworkTimeout() throws SQLException {
        return session.getNetworkTimeout();
    }
}

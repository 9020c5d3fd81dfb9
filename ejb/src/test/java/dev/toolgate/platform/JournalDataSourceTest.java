package dev.toolgate.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One EAR, two servers: what Payara resolves is taken; what WildFly hands over unresolved is not. */
class JournalDataSourceTest {

    @AfterEach
    void clear() {
        System.clearProperty("toolgate.db.url");
        System.clearProperty("toolgate.db.user");
        System.clearProperty("toolgate.db.socket-timeout-seconds");
    }

    @Test
    void boundsConnectLoginAndReadsByDefault() throws Exception {
        JournalDataSource dataSource = new JournalDataSource();
        assertEquals(JournalDataSource.CONNECT_TIMEOUT_SECONDS, dataSource.getConnectTimeout());
        assertEquals(JournalDataSource.CONNECT_TIMEOUT_SECONDS, dataSource.getLoginTimeout());
        assertEquals(JournalDataSource.SOCKET_TIMEOUT_SECONDS, dataSource.getSocketTimeout());
    }

    @Test
    void keepsItsLoginTimeoutWhenThePoolPassesTheUnsetDefault() throws Exception {
        JournalDataSource dataSource = new JournalDataSource();
        dataSource.setLoginTimeout(0);
        assertEquals(JournalDataSource.CONNECT_TIMEOUT_SECONDS, dataSource.getLoginTimeout());
    }

    @Test
    void takesTheSocketTimeoutFromTheSetting() {
        System.setProperty("toolgate.db.socket-timeout-seconds", "9");
        assertEquals(9, new JournalDataSource().getSocketTimeout());
    }

    @Test
    void takesTheSettingWhenTheServerLeftTheExpressionUnresolved() {
        System.setProperty("toolgate.db.url", "jdbc:postgresql://db.example:5433/journal");
        System.setProperty("toolgate.db.user", "toolgate");
        JournalDataSource dataSource = new JournalDataSource();
        dataSource.setUrl("${MPCONFIG=toolgate.db.url}");
        dataSource.setUser("${MPCONFIG=toolgate.db.user}");
        dataSource.setUser("");
        assertEquals("db.example", dataSource.getServerNames()[0]);
        assertEquals(5433, dataSource.getPortNumbers()[0]);
        assertEquals("journal", dataSource.getDatabaseName());
        assertEquals("toolgate", dataSource.getUser());
    }

    @Test
    void takesWhatTheServerResolved() {
        JournalDataSource dataSource = new JournalDataSource();
        dataSource.setUrl("jdbc:postgresql://resolved.example:5432/toolgate");
        assertEquals("resolved.example", dataSource.getServerNames()[0]);
    }
}

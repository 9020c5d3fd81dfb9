package dev.toolgate.journal;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import jakarta.persistence.Persistence;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import javax.sql.DataSource;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A real PostgreSQL holding the migrated journal schema, for tests of the journal's own SQL. A test class holds one as
 * {@code @RegisterExtension static final JournalDatabase database = JournalDatabase.perClass();}: started and migrated
 * before the class's {@code @BeforeAll} methods, stopped after its {@code @AfterAll} ones.
 */
public final class JournalDatabase implements AutoCloseable, BeforeAllCallback, AfterAllCallback {

    /**
     * {@link EventLog} writes an event's log line once its container transaction commits, through the server's
     * TransactionSynchronizationRegistry; outside a server there is none, so the ITs that append events keep that
     * logger quiet (the line is the registry's business, the event row is what they check): off, in every IT alike,
     * since the ITs run two at a time in one JVM and a level is global (a suite that set WARNING beside one that set OFF
     * let a refusal's WARNING line through to the missing registry). Held here: a logger nobody references may be
     * collected and lose its level.
     */
    private static final Logger OPERATIONS_LOG = Logger.getLogger("dev.toolgate.operations");

    private EmbeddedPostgres postgres;

    private JournalDatabase() {
    }

    /** One database for the test class that registers it; none is started until the class's tests begin. */
    public static JournalDatabase perClass() {
        return new JournalDatabase();
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        postgres = EmbeddedPostgres.builder().start();
        Flyway.configure().dataSource(postgres.getPostgresDatabase()).locations("classpath:db/migration").load().migrate();
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        close();
    }

    public Connection connection() throws SQLException {
        return postgres.getPostgresDatabase().getConnection();
    }

    public DataSource dataSource() {
        return postgres.getPostgresDatabase();
    }

    /**
     * The application's persistence unit ({@code META-INF/persistence.xml}) over {@code dataSource}, as the beans
     * get it in a server, except that the test opens and commits transactions itself (RESOURCE_LOCAL) where the
     * container would (a bean's {@code REQUIRES_NEW}). Weaving needs an agent outside a server: off.
     */
    public static EntityManagerFactory persistenceUnit(DataSource dataSource) {
        OPERATIONS_LOG.setLevel(Level.OFF);
        return Persistence.createEntityManagerFactory("toolgate", Map.of(
                "jakarta.persistence.transactionType", "RESOURCE_LOCAL",
                "jakarta.persistence.jtaDataSource", "",
                "jakarta.persistence.nonJtaDataSource", dataSource,
                "eclipselink.weaving", "false"));
    }

    public EntityManagerFactory persistenceUnit() {
        return persistenceUnit(dataSource());
    }

    /**
     * {@code work} in one transaction of its own, on a persistence context of its own, committed when it returns
     * and rolled back when it throws: what the container does around a {@code REQUIRES_NEW} bean method.
     */
    public static <T> T inTransaction(EntityManagerFactory unit, Function<EntityManager, T> work) {
        EntityManager em = unit.createEntityManager();
        EntityTransaction transaction = em.getTransaction();
        try {
            transaction.begin();
            T result = work.apply(em);
            transaction.commit();
            return result;
        } finally {
            if (transaction.isActive()) {
                transaction.rollback();
            }
            em.close();
        }
    }

    /** The JPA statements number their parameters (?1, ?2 …) in order; JDBC wants plain ?. */
    public static String jdbc(String jpaSql) {
        return NumberedSql.of(jpaSql).jdbc();
    }

    /**
     * {@code jpaSql} prepared for JDBC with each ?N occurrence bound to {@code byNumber[N - 1]}, as JPA binds a
     * numbered parameter that the statement uses more than once.
     */
    public static java.sql.PreparedStatement prepared(Connection c, String jpaSql, Object... byNumber) throws SQLException {
        return NumberedSql.of(jpaSql).prepare(c, byNumber);
    }

    @Override
    public void close() throws IOException {
        if (postgres != null) {
            postgres.close();
            postgres = null;
        }
    }

    /** The journal's settings as a test of another package needs them, without MicroProfile Config. */
    public static JournalSettings settings(int leaseSeconds, int settleSeconds, int maxReconciles) {
        JournalSettings settings = new JournalSettings();
        settings.leaseSeconds = leaseSeconds;
        settings.settleSeconds = settleSeconds;
        settings.maxReconciles = maxReconciles;
        settings.approvalRequiredFor = java.util.List.of("payment.create", "payment.refund");
        return settings;
    }

    /** The journal's reads over {@code em}, without a container. */
    public static Journal journal(jakarta.persistence.EntityManager em) {
        Journal journal = new Journal();
        journal.em = em;
        return journal;
    }
}

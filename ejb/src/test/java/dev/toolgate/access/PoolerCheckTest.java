package dev.toolgate.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.toolgate.access.PoolerCheck.Direct;
import dev.toolgate.access.PoolerCheck.Pooled;
import dev.toolgate.access.PoolerCheck.Seen;
import dev.toolgate.access.PoolerCheck.Unproven;
import org.junit.jupiter.api.Test;

/** The check's judgement, one sign at a time: "direct" only when every sign agrees, whatever else is seen. */
class PoolerCheckTest {

    /** What a connection of its own shows: its key's pid, its two transactions, its setting; the other elsewhere. */
    private static final Seen OWN_SESSION = new Seen(101, 101, 101, true, 202, false);

    @Test
    void findsADirectConnectionWhenEverySignPointsToOneSessionOfItsOwn() {
        assertEquals(new Direct(101), PoolerCheck.judge(OWN_SESSION));
    }

    @Test
    void findsAPoolerWhenTheBackendKeyIsNotTheBackendsOwn() {
        // PgBouncer hands the client a key of its own making: here its transactions happened to stay on one backend
        assertInstanceOf(Pooled.class, PoolerCheck.judge(new Seen(-58_123_411, 101, 101, true, 202, false)));
    }

    @Test
    void findsAPoolerWhenAnotherConnectionsTransactionRanOnThisConnectionsBackend() {
        assertInstanceOf(Pooled.class, PoolerCheck.judge(new Seen(101, 101, 101, true, 101, false)));
    }

    @Test
    void findsAPoolerWhenAnotherConnectionSeesThisSessionsSetting() {
        assertInstanceOf(Pooled.class, PoolerCheck.judge(new Seen(101, 101, 101, true, 202, true)));
    }

    @Test
    void findsAPoolerWhenConsecutiveTransactionsRanOnDifferentBackends() {
        assertInstanceOf(Pooled.class, PoolerCheck.judge(new Seen(101, 101, 102, true, 202, false)));
    }

    @Test
    void findsAPoolerWhenASessionSettingDoesNotOutliveItsTransaction() {
        assertInstanceOf(Pooled.class, PoolerCheck.judge(new Seen(101, 101, 101, false, 202, false)));
    }

    @Test
    void provesNothingWhenNoBackendWasNamedAtStartUp() {
        assertInstanceOf(Unproven.class, PoolerCheck.judge(new Seen(0, 101, 101, true, 202, false)));
    }

    @Test
    void saysWhatGaveThePoolerAway() {
        Pooled pooled = (Pooled) PoolerCheck.judge(new Seen(101, 101, 102, false, 101, false));
        assertEquals("another connection's transaction ran on backend 101, where this connection's had just run", pooled.evidence());
    }
}

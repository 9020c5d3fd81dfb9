package dev.toolgate.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.util.List;

/** What a start's log says decides whether to keep waiting for the gateway's first answer. */
class StartLogTest {

    private static final String DEPLOYING = "[INFO] Loading application [ROOT] at [/]\n";
    private static final String DEPLOYED = "[INFO] ROOT was successfully deployed in 34,598 milliseconds.\n[INFO] Deployed 1 archive(s)\n";
    private static final String READY = "[INFO] Payara Micro 6.2025.10 (build 42) ready in 62,681 (ms)\n";

    @Test
    void aMicroThatHasNotSaidItIsReadyIsStillStarting() {
        assertEquals(StartLog.STARTING, StartLog.of(""));
        assertEquals(StartLog.STARTING, StartLog.of(DEPLOYING + DEPLOYED), "deployed, but the server is not ready yet");
    }

    @Test
    void aReadyMicroThatDeployedTheGatewayIsWaitedForHoweverSlowItsFirstAnswers() {
        assertEquals(StartLog.DEPLOYED, StartLog.of(DEPLOYING + DEPLOYED + READY));
    }

    @Test
    void aReadyMicroThatSaysNeitherIsLeftToTheProbe() {
        assertEquals(StartLog.UNCLEAR, StartLog.of("[INFO] ROOT a été déployé avec succès\n" + READY),
                "another wording: no evidence of failure, so the probe decides");
    }

    @Test
    void aReadyMicroThatDidNotDeployTheGatewayHasFailedAndSaysWhy() {
        String failed = DEPLOYING
                + "[SEVERE] Exception while invoking class org.glassfish.ejb.startup.EjbDeployer load method\n"
                + "java.lang.RuntimeException: EJB Container initialization error\n"
                + "Caused by: org.postgresql.util.PSQLException: Connection to 127.0.0.1:5 refused.\n"
                + "\tat org.postgresql.core.v3.ConnectionFactoryImpl.openConnectionImpl(ConnectionFactoryImpl.java:342)\n"
                + "[INFO] Deployed 0 archive(s)\n" + READY;
        assertEquals(StartLog.NOT_DEPLOYED, StartLog.of(failed));
        assertEquals(List.of("[SEVERE] Exception while invoking class org.glassfish.ejb.startup.EjbDeployer load method",
                "java.lang.RuntimeException: EJB Container initialization error",
                "Caused by: org.postgresql.util.PSQLException: Connection to 127.0.0.1:5 refused."), StartLog.why(failed, 8));
        assertEquals(1, StartLog.why(failed, 1).size(), "at most as many lines as asked for");
    }
}

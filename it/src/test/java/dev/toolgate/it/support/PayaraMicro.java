package dev.toolgate.it.support;

import dev.toolgate.launcher.GatewayProcess;
import dev.toolgate.launcher.Jdks;
import dev.toolgate.launcher.LocalStack;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The WAR on a Payara Micro of a given runtime folder (its {@code payara-micro.jar} and {@code ROOT.war}), configured
 * as docs/operations.md says for Micro: the journal on the WAR's own datasource (the JDBC driver beside it,
 * {@code --addlibs}, for a post-boot pool a suite may add), any post-boot scripts a suite names, and its logging
 * configured by a {@code logging.properties} of the operator's ({@code --logproperties}): Micro has no
 * {@code set-log-attributes}. What it writes to standard output is its log.
 */
public final class PayaraMicro implements AppServer {

    private final GatewayProcess gateway;
    private final Path serverLog;

    private PayaraMicro(GatewayProcess gateway, Path serverLog) {
        this.gateway = gateway;
        this.serverLog = serverLog;
    }

    /**
     * Starts Micro from {@code runtime} on a JDK whose feature release is at least {@code minimumJava}
     * ({@code -Dtoolgate.micro7.java-home}, else one in /usr/lib/jvm), running {@code postBoot} scripts, logging as
     * {@code logProperties} says, and waits for it.
     */
    public static PayaraMicro start(String name, Path runtime, int minimumJava, Map<String, String> environment,
                                    List<Path> postBoot, Path logProperties) throws Exception {
        List<Path> tried = new ArrayList<>();
        Path java = Jdks.find("toolgate.micro7.java-home", feature -> feature >= minimumJava, tried).orElseThrow(() ->
                new IllegalStateException("no Java " + minimumJava + " or newer for Payara Micro (tried " + tried
                        + "): install a JDK 21 or 25, or name one with -Dtoolgate.micro7.java-home"));
        Path serverLog = Path.of("target", name + ".log").toAbsolutePath(); // Micro's standard output
        Files.deleteIfExists(serverLog);
        GatewayProcess gateway = new GatewayProcess(runtime, LocalStack.freePort(), environment, serverLog)
                .withJava(java).withJvmOptions(LocalStack.SHORT_LIVED_JVM)
                .withServerOptions(List.of("--addlibs", TestStack.runtime().resolve("postgresql.jar").toString(),
                        "--logproperties", logProperties.toString()));
        for (Path script : postBoot) {
            gateway.withPostBoot(script);
        }
        Credentials.serves(gateway.baseUrl(), environment.get("TOOLGATE_DB_URL"));
        SuiteTimings.started("gateway " + name);
        gateway.start().awaitReady();
        return new PayaraMicro(gateway, serverLog);
    }

    @Override
    public String baseUrl() {
        return gateway.baseUrl();
    }

    @Override
    public Path serverLog() {
        return serverLog;
    }

    @Override
    public void close() throws Exception {
        Credentials.forget(baseUrl());
        TestStack.discard(gateway); // the suite is done with it: no orderly stop to wait for (TestStack.discard)
    }
}

package dev.toolgate.it.console;

import dev.toolgate.it.support.Browser;
import dev.toolgate.it.support.Keycloak;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.launcher.GatewayProcess;
import org.openqa.selenium.By;

import java.util.Map;

/**
 * A Keycloak and a gateway whose console signs people in at it, for one test class. No background reconcile
 * job: in these stories an operator starts the runs. Idle expiry is 30 s, so a test can watch a session expire.
 */
final class ConsoleStack implements AutoCloseable {

    static final int IDLE_SECONDS = 30;

    final Keycloak keycloak;
    final GatewayProcess gateway;

    private ConsoleStack(Keycloak keycloak, GatewayProcess gateway) {
        this.keycloak = keycloak;
        this.gateway = gateway;
    }

    /**
     * The gateway starts while Keycloak does (the run's, started as the run began): the console needs only the
     * provider's address to deploy, and asks the provider itself when someone signs in.
     */
    static ConsoleStack start(String database) throws Exception {
        Keycloak starting = Keycloak.launched();
        GatewayProcess gateway = null;
        try {
            Map<String, String> config = TestStack.configFor(TestStack.newDatabase(database));
            config.put("toolgate.reconcile.interval-seconds", "0");
            config.put("toolgate.reconcile.settle-seconds", "1");
            config.put("toolgate.console.oidc.client-id", starting.clientId());
            config.put("toolgate.console.oidc.client-secret", starting.clientSecret());
            config.put("toolgate.console.idle-timeout-seconds", Integer.toString(IDLE_SECONDS));
            config.put("toolgate.console.trace-url", "https://traces.example/trace/{trace_id}");
            gateway = TestStack.readyGateway(withProvider(config, starting), database);
            Keycloak keycloak = Keycloak.start();
            if (keycloak != starting) { // that start failed and this one is another, elsewhere: the console must name it
                TestStack.discard(gateway);
                gateway = null;
                gateway = TestStack.readyGateway(withProvider(config, keycloak), database);
            }
            return new ConsoleStack(keycloak, gateway);
        } catch (Exception | Error e) {
            TestStack.discard(gateway);
            throw e;
        }
    }

    private static Map<String, String> withProvider(Map<String, String> config, Keycloak keycloak) {
        config.put("toolgate.console.oidc.provider-uri", keycloak.issuer());
        return config;
    }

    String url(String path) {
        return gateway.baseUrl() + path;
    }

    /** A fresh browser, signed in as {@code user} at the identity provider, on the console's home page. */
    Browser signedIn(String user) {
        Browser browser = new Browser();
        try {
            browser.open(url("/console/")).signIn(user, user + "-pw");
            browser.waitFor(By.id("signed-in-as"));
            return browser;
        } catch (RuntimeException e) {
            browser.close();
            throw e;
        }
    }

    @Override
    public void close() throws Exception {
        try {
            TestStack.discard(gateway);
        } finally {
            keycloak.close();
        }
    }
}

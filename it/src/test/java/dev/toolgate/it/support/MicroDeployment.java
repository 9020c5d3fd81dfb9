package dev.toolgate.it.support;

import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;

import java.net.URL;

/** What the Arquillian classes deploy to Payara Micro, and how they reach it. */
public final class MicroDeployment {

    private MicroDeployment() {
    }

    /** The gateway WAR exactly as built, as users of Micro deploy it. */
    public static WebArchive gatewayWar() {
        return ShrinkWrap.createFromZipFile(WebArchive.class, TestStack.runtime().resolve("ROOT.war").toFile());
    }

    /** Micro reports its host as the machine's interface address; it listens on all, so use loopback. */
    public static String baseUrl(URL deployment) {
        return "http://127.0.0.1:" + deployment.getPort() + deployment.getPath().replaceAll("/$", "");
    }
}

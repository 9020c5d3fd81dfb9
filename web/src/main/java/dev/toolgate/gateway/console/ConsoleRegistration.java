package dev.toolgate.gateway.console;

import jakarta.inject.Inject;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.HttpConstraintElement;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.ServletSecurityElement;
import jakarta.servlet.SessionCookieConfig;
import jakarta.servlet.SessionTrackingMode;
import jakarta.servlet.annotation.WebListener;

import java.util.EnumSet;
import java.util.logging.Logger;

/**
 * Puts the console in place at start-up, by code as it depends on configuration: with an identity provider,
 * {@code /console/*} is protected and guarded ({@link ConsoleGuard}); without, it says how to configure one. The session
 * cookie is HttpOnly, Secure by default, scoped to {@code /console}, SameSite=Lax: the provider's redirect is cross-site.
 */
@WebListener
public class ConsoleRegistration implements ServletContextListener {

    private static final Logger LOG = Logger.getLogger(ConsoleRegistration.class.getName());
    /** Servlet's "any authenticated user". */
    private static final String ANY_SIGNED_IN = "**";

    @Inject
    ConsoleSettings settings;
    private String gate;

    @Override
    public void contextInitialized(ServletContextEvent event) {
        ServletContext context = event.getServletContext();
        SessionCookieConfig cookie = context.getSessionCookieConfig();
        cookie.setName("TOOLGATE_CONSOLE");
        cookie.setPath(context.getContextPath() + "/console");
        cookie.setHttpOnly(true);
        cookie.setSecure(settings.secureCookie());
        cookie.setAttribute("SameSite", "Lax");
        context.setSessionTrackingModes(EnumSet.of(SessionTrackingMode.COOKIE)); // never a session id in a URL

        ServletRegistration.Dynamic open = context.addServlet("console-public", ConsolePublicServlet.class);
        open.addMapping(ConsolePublicServlet.PATHS.toArray(String[]::new));
        open.setServletSecurity(new ServletSecurityElement()); // exact paths: they win over /console/*
        if (!settings.enabled()) {
            ServletRegistration.Dynamic off = context.addServlet("console-unconfigured", ConsoleUnconfiguredServlet.class);
            off.addMapping("/console", "/console/*");
            gate = SignInGate.install(context, null); // the API and MCP requests still skip Jakarta Security's bridge
            LOG.info("console: no identity provider configured (toolgate.console.oidc.provider-uri): /console is off");
            return;
        }
        ServletRegistration.Dynamic pages = context.addServlet("console", ConsoleServlet.class);
        pages.addMapping("/console", "/console/*");
        pages.setServletSecurity(new ServletSecurityElement(new HttpConstraintElement(
                jakarta.servlet.annotation.ServletSecurity.TransportGuarantee.NONE, ANY_SIGNED_IN)));
        FilterRegistration.Dynamic guard = context.addFilter("console-guard", ConsoleGuard.class);
        // matched after: the input edge (dev.toolgate.gateway.edge) checks what the guard may log first
        guard.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/console", "/console/*");
        gate = SignInGate.install(context, IdentityProviderCheck.of(settings.getProviderUri()));
        LOG.info("console: at /console, people sign in at " + settings.getProviderUri());
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        SignInGate.uninstall(gate);
    }
}

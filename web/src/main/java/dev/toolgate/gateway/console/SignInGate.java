package dev.toolgate.gateway.console;

import jakarta.security.auth.message.AuthException;
import jakarta.security.auth.message.AuthStatus;
import jakarta.security.auth.message.MessageInfo;
import jakarta.security.auth.message.config.AuthConfigFactory;
import jakarta.security.auth.message.config.AuthConfigProvider;
import jakarta.security.auth.message.config.ClientAuthConfig;
import jakarta.security.auth.message.config.ServerAuthConfig;
import jakarta.security.auth.message.config.ServerAuthContext;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

import jakarta.security.auth.message.callback.CallerPrincipalCallback;

import javax.security.auth.Subject;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.UnsupportedCallbackException;
import java.io.IOException;
import java.security.Principal;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Stands in front of the OpenID Connect sign-in ({@link ConsoleSignIn}): answers 503 with {@code Retry-After} when
 * someone not signed in would be sent to a provider that does not answer (else Payara answers an empty 500, WildFly
 * a stack trace; {@code ConsoleIT}, {@code EarSuite}). Registered with {@link AuthConfigFactory} in place of Jakarta
 * Security's registration, since its mechanism runs before any filter.
 *
 * <p>Installed even with the console off ({@code provider} null): it answers {@code /api}, {@code /mcp} and
 * {@code /notifications} itself, whose doors admit their callers, so Jakarta Security's bridge neither looks its
 * {@code BeanManager} up in JNDI on each call nor reads a notification's form before its door (docs/console.md).
 */
final class SignInGate implements AuthConfigProvider {

    private static final Logger LOG = Logger.getLogger(SignInGate.class.getName());
    private static final String LAYER = "HttpServlet";
    /** Jakarta Authentication's Servlet profile: set when the resource asked for is protected. */
    private static final String MANDATORY = "jakarta.security.auth.message.MessagePolicy.isMandatory";
    /** The servlet paths that are no sign-in's business: each door admits its callers by its own check. */
    private static final Set<String> OWN_CHECK_PATHS = Set.of("/api", "/mcp", "/notifications");

    private final AuthConfigProvider signIn;
    private final IdentityProviderCheck provider;

    SignInGate(AuthConfigProvider signIn, IdentityProviderCheck provider) {
        this.signIn = signIn;
        this.provider = provider;
    }

    /** The registration id to remove the gate with, or null if there was nothing to guard. */
    static String install(ServletContext context, IdentityProviderCheck provider) {
        String application = context.getVirtualServerName() + " " + context.getContextPath();
        AuthConfigFactory factory = AuthConfigFactory.getFactory();
        AuthConfigProvider signIn = factory == null ? null : factory.getConfigProvider(LAYER, application, null);
        if (signIn == null) {
            if (provider != null) {
                LOG.warning(() -> "console: no sign-in registered for " + application + " to put the identity provider check in front of");
            }
            return null;
        }
        return factory.registerConfigProvider(new SignInGate(signIn, provider), LAYER, application,
                "Toolgate console: the identity provider's check before signing in");
    }

    static void uninstall(String registration) {
        if (registration != null && AuthConfigFactory.getFactory() != null) {
            AuthConfigFactory.getFactory().removeRegistration(registration);
        }
    }

    @Override
    public ServerAuthConfig getServerAuthConfig(String layer, String appContext, CallbackHandler handler) throws AuthException {
        ServerAuthConfig config = signIn.getServerAuthConfig(layer, appContext, handler);
        return new ServerAuthConfig() {
            @Override
            public ServerAuthContext getAuthContext(String id, Subject service, Map<String, Object> properties) throws AuthException {
                return new Gate(config.getAuthContext(id, service, properties), handler);
            }

            @Override
            public String getAuthContextID(MessageInfo message) {
                return config.getAuthContextID(message);
            }

            @Override
            public String getMessageLayer() {
                return config.getMessageLayer();
            }

            @Override
            public String getAppContext() {
                return config.getAppContext();
            }

            @Override
            public void refresh() {
                config.refresh();
            }

            @Override
            public boolean isProtected() {
                return config.isProtected();
            }
        };
    }

    @Override
    public ClientAuthConfig getClientAuthConfig(String layer, String appContext, CallbackHandler handler) throws AuthException {
        return signIn.getClientAuthConfig(layer, appContext, handler);
    }

    @Override
    public void refresh() {
        signIn.refresh();
    }

    private final class Gate implements ServerAuthContext {

        private final ServerAuthContext signIn;
        private final CallbackHandler container;

        Gate(ServerAuthContext signIn, CallbackHandler container) {
            this.signIn = signIn;
            this.container = container;
        }

        @Override
        public AuthStatus validateRequest(MessageInfo message, Subject client, Subject service) throws AuthException {
            if (admittedByItsDoor(message)) {
                return unauthenticated(client);
            }
            boolean needsProvider = provider != null && needsProvider(message);
            if (needsProvider && !provider.answers()) {
                return down(message);
            }
            try {
                return signIn.validateRequest(message, client, service);
            } catch (AuthException | RuntimeException e) {
                if (needsProvider && !provider.answersNow()) { // it went down on the way: say so, not 500
                    LOG.log(Level.FINE, "console: signing in failed with the identity provider down", e);
                    return down(message);
                }
                throw e;
            }
        }

        @Override
        public AuthStatus secureResponse(MessageInfo message, Subject service) throws AuthException {
            return admittedByItsDoor(message) ? AuthStatus.SEND_SUCCESS : signIn.secureResponse(message, service);
        }

        /** What the bridge answers a request its mechanism leaves alone: no caller (a null principal), and SUCCESS. */
        private AuthStatus unauthenticated(Subject client) throws AuthException {
            if (container != null) {
                try {
                    container.handle(new Callback[] {new CallerPrincipalCallback(client, (Principal) null)});
                } catch (IOException | UnsupportedCallbackException e) {
                    throw (AuthException) new AuthException("the container refused the unauthenticated caller").initCause(e);
                }
            }
            return AuthStatus.SUCCESS;
        }

        @Override
        public void cleanSubject(MessageInfo message, Subject subject) throws AuthException {
            signIn.cleanSubject(message, subject);
        }
    }

    /** By the container's servlet path, so no spelling of a console address ({@code /api/../console}) is taken for one. */
    static boolean admittedByItsDoor(MessageInfo message) {
        return !Boolean.parseBoolean(String.valueOf(message.getMap().get(MANDATORY)))
                && message.getRequestMessage() instanceof HttpServletRequest request && OWN_CHECK_PATHS.contains(request.getServletPath());
    }

    private static boolean needsProvider(MessageInfo message) {
        if (!Boolean.parseBoolean(String.valueOf(message.getMap().get(MANDATORY)))
                || !(message.getRequestMessage() instanceof HttpServletRequest request)) {
            return false;
        }
        HttpSession session = request.getSession(false);
        return session == null || session.getAttribute(ConsoleGuard.USER) == null;
    }

    /** SEND_CONTINUE, not SEND_FAILURE, which lets a container put its own error page in place of ours; resets first. */
    private static AuthStatus down(MessageInfo message) throws AuthException {
        if (!(message.getResponseMessage() instanceof HttpServletResponse response) || response.isCommitted()) {
            throw new AuthException("the identity provider does not answer");
        }
        try {
            response.reset();
            ConsolePages.secureHeaders(response);
            response.setHeader("Retry-After", Long.toString(IdentityProviderCheck.FRESH.toSeconds()));
            Html body = new Html().raw("<p class=\"refused\" role=\"alert\" id=\"provider-down\">Signing in is not possible right now: ")
                    .raw("the identity provider this console signs people in with does not answer. Nothing was changed. ")
                    .raw("Try again in a few seconds; if it lasts, tell whoever runs the identity provider.</p>");
            ConsolePages.write(response, 503, ConsolePages.page("Signing in is unavailable", null, null, null, body, 0));
            response.flushBuffer();
        } catch (IOException e) {
            LOG.log(Level.FINE, "console: the sign-in unavailable page could not be sent", e);
        }
        LOG.fine("console: a sign-in was answered 503: the identity provider does not answer"); // IdentityProviderCheck says it once
        return AuthStatus.SEND_CONTINUE;
    }
}

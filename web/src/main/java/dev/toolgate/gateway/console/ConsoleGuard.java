package dev.toolgate.gateway.console;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.security.enterprise.identitystore.openid.OpenIdContext;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Logger;

/**
 * Every console request after the container authenticated it: who the person is here ({@link People}), whether the
 * session expired, and for a POST whether it comes from a console page ({@link Csrf}). Pages read the person from
 * {@link #USER}; a request refused here reaches no page.
 */
public class ConsoleGuard extends HttpFilter {

    static final String USER = "toolgate.console.user";
    private static final String LAST_SEEN = "toolgate.console.last-seen";
    static final String CSRF = "toolgate.console.csrf";
    private static final String REFUSED = "toolgate.console.refused";
    private static final Logger LOG = Logger.getLogger(ConsoleGuard.class.getName());

    @Inject
    ConsoleSettings settings;
    @Inject
    Instance<OpenIdContext> openId;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        ConsolePages.secureHeaders(response);
        if (request.getCharacterEncoding() == null) {
            request.setCharacterEncoding("UTF-8"); // before the first parameter is read: forms are sent in the page's UTF-8
        }
        if (request.getUserPrincipal() == null // only the public pages get here unauthenticated
                || ConsolePublicServlet.PATHS.contains(request.getRequestURI().substring(request.getContextPath().length()))) {
            chain.doFilter(request, response);
            return;
        }
        Instant now = Instant.now();
        HttpSession session = request.getSession(true);
        ConsoleUser user = (ConsoleUser) session.getAttribute(USER);
        if (user == null) {
            if (session.getAttribute(CSRF) == null) { // the first request after sign-in (the refused are judged once)
                request.changeSessionId(); // the pre-sign-in session id (it carried the OIDC state) is not the signed-in one
                session = request.getSession(false);
                sameSite(request, response, session);
                session.setAttribute(CSRF, Csrf.newToken());
                session.setMaxInactiveInterval((int) Math.min(Integer.MAX_VALUE, settings.idleTimeout().plusMinutes(1).getSeconds()));
            }
            People.Admission admission = session.getAttribute(REFUSED) instanceof String why ? new People.Refused(why) : admit(now);
            if (admission instanceof People.Refused refused) {
                if (session.getAttribute(REFUSED) == null) {
                    session.setAttribute(REFUSED, refused.why());
                    LOG.info("console: refused " + request.getUserPrincipal().getName() + ": " + refused.why());
                }
                if (isSignOut(request)) { // a refused person may still sign out, to sign in as somebody else
                    chain.doFilter(request, response);
                    return;
                }
                ConsolePages.refused(response, 403, "No access to the console", refused.why(), (String) session.getAttribute(CSRF));
                return;
            }
            user = ((People.Admitted) admission).user();
            session.setAttribute(USER, user);
            LOG.info("console: " + user.name() + " signed in (tenant " + user.tenant() + ", " + user.roleNames() + ")");
        } else if (expired(user, (Instant) session.getAttribute(LAST_SEEN), now)) {
            LOG.info("console: the session of " + user.name() + " expired");
            session.invalidate();
            response.sendRedirect(request.getContextPath() + "/console/signed-out?why=expired");
            return;
        }
        session.setAttribute(LAST_SEEN, now);
        if (!"GET".equals(request.getMethod()) && !"HEAD".equals(request.getMethod())) {
            String refusal = csrfRefusal(request, session);
            if (refusal != null) {
                LOG.warning("console: refused a " + request.getMethod() + " of " + user.name() + " to " + request.getRequestURI() + ": " + refusal
                        + " (Origin " + request.getHeader("Origin") + ", Host " + request.getHeader("Host") + ")");
                ConsolePages.refused(response, 403, "Request refused", refusal, null);
                return;
            }
        }
        request.setAttribute(USER, user);
        chain.doFilter(request, response);
    }

    /** Payara writes the session cookie without SameSite: it is set again with it, as a browser keeps the last of the two. */
    private void sameSite(HttpServletRequest request, HttpServletResponse response, HttpSession session) {
        String name = request.getServletContext().getSessionCookieConfig().getName();
        boolean written = response.getHeaders("Set-Cookie").stream()
                .anyMatch(cookie -> cookie.startsWith(name + "=") && cookie.toLowerCase(java.util.Locale.ROOT).contains("samesite"));
        if (!written) {
            response.addHeader("Set-Cookie", name + "=" + session.getId() + "; Path=" + request.getContextPath() + "/console; HttpOnly"
                    + (settings.secureCookie() ? "; Secure" : "") + "; SameSite=Lax");
        }
    }

    private static boolean isSignOut(HttpServletRequest request) {
        return "POST".equals(request.getMethod()) && "/console/sign-out".equals(request.getRequestURI().substring(request.getContextPath().length()))
                && csrfRefusal(request, request.getSession()) == null;
    }

    private static String csrfRefusal(HttpServletRequest request, HttpSession session) {
        return Csrf.refusal((String) session.getAttribute(CSRF), request.getParameter(Csrf.FIELD), request.getHeader("Origin"),
                request.getHeader("Sec-Fetch-Site"), request.getHeader("Host"));
    }

    /** Idle past {@code toolgate.console.idle-timeout-seconds}, or signed in longer ago than the absolute limit. */
    boolean expired(ConsoleUser user, Instant lastSeen, Instant now) {
        return expired(user.signedInAt(), lastSeen, now, settings.idleTimeout(), settings.maxSession());
    }

    static boolean expired(Instant signedInAt, Instant lastSeen, Instant now, Duration idle, Duration max) {
        return Duration.between(signedInAt, now).compareTo(max) > 0
                || lastSeen != null && Duration.between(lastSeen, now).compareTo(idle) > 0;
    }

    private People.Admission admit(Instant now) {
        try {
            OpenIdContext context = openId.get();
            List<Map<String, Object>> tokens = new ArrayList<>();
            tokens.add(context.getIdentityToken().getClaims());
            if (context.getAccessToken() != null && context.getAccessToken().isJWT()) {
                tokens.add(context.getAccessToken().getClaims());
            }
            String name = null;
            Set<String> tenants = new LinkedHashSet<>();
            Set<String> groups = new LinkedHashSet<>();
            for (Map<String, Object> claims : tokens) {
                if (name == null && claims.get(settings.nameClaim()) instanceof String given) {
                    name = given;
                }
                tenants.addAll(strings(claims.get(settings.tenantClaim())));
                groups.addAll(strings(claims.get(settings.groupsClaim())));
            }
            return People.admit(name, tenants, groups, settings.roleGroups(), now);
        } catch (RuntimeException e) { // a provider's claims of a shape no configuration here expects
            LOG.warning("console: the identity provider's claims could not be read (" + e.getClass().getName() + ")");
            return new People.Refused("the identity provider's claims could not be read: ask an administrator to check "
                    + "the claims toolgate.console.claims.* name");
        }
    }

    /** One string or an array of them (Keycloak's multivalued attribute); two tenants in an array are refused. */
    static List<String> strings(Object claim) {
        if (claim instanceof String one) {
            return List.of(one);
        }
        if (claim instanceof jakarta.json.JsonArray array) { // before Collection: a JsonArray is a List of JsonValues
            return array.stream().filter(jakarta.json.JsonString.class::isInstance)
                    .map(value -> ((jakarta.json.JsonString) value).getString()).toList();
        }
        if (claim instanceof Collection<?> many) {
            return many.stream().filter(String.class::isInstance).map(String.class::cast).toList();
        }
        if (claim instanceof jakarta.json.JsonString one) {
            return List.of(one.getString());
        }
        return List.of();
    }

}

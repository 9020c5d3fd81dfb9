package dev.toolgate.gateway.console;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.security.enterprise.identitystore.openid.OpenIdContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;

import java.io.IOException;

/**
 * Ends the console session, then the person's at the identity provider (OpenID Connect RP-Initiated Logout), which
 * sends them back to the signed-out page. Not by {@code request.logout()}: on WildFly 39 it redirects to an object
 * name, not the provider's address (eclipse-ee4j/soteria#367).
 */
@ApplicationScoped
public class SignOut {

    @Inject
    Instance<OpenIdContext> openId;

    void answer(ConsoleExchange exchange) throws IOException {
        HttpServletRequest request = exchange.request();
        OpenIdContext context = openId.get();
        String endSession = context.getProviderMetadata().getString("end_session_endpoint", "");
        String idToken = context.getIdentityToken().getToken();
        HttpSession session = request.getSession(false);
        if (session != null) {
            session.invalidate(); // the mechanism keeps the sign-in in the session: without it nobody is signed in here
        }
        String url = request.getRequestURL().toString();
        String signedOut = url.substring(0, url.length() - request.getRequestURI().length()) + request.getContextPath() + "/console/signed-out";
        exchange.response().sendRedirect(endSession.isEmpty() ? signedOut : endSession + (endSession.contains("?") ? "&" : "?")
                + "id_token_hint=" + Html.query(idToken) + "&post_logout_redirect_uri=" + Html.query(signedOut));
    }
}

package dev.toolgate.gateway.console;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.security.enterprise.authentication.mechanism.http.OpenIdAuthenticationMechanismDefinition;
import jakarta.security.enterprise.authentication.mechanism.http.openid.ClaimsDefinition;

/**
 * How people sign in: Jakarta Security's OpenID Connect mechanism, portable across Payara and WildFly; it acts only
 * on the console's protected pages and its callback. JWKS timeouts of 5 s, not 500 ms: a freshly started provider on a
 * loaded host is slower. Tokens are not refreshed: {@link ConsoleGuard}'s expiry ends a session. Sign-out is
 * {@link SignOut}'s, which says why.
 */
@ApplicationScoped
@OpenIdAuthenticationMechanismDefinition(
        providerURI = "${consoleOidc.providerUri}",
        clientId = "${consoleOidc.clientId}",
        clientSecret = "${consoleOidc.clientSecret}",
        redirectURI = "${baseURL}/console/Callback",
        promptExpression = "${consoleOidc.prompt}",
        claimsDefinition = @ClaimsDefinition(callerNameClaim = "preferred_username", callerGroupsClaim = "groups"),
        jwksConnectTimeout = 5000,
        jwksReadTimeout = 5000)
public class ConsoleSignIn {
}

package dev.toolgate.gateway.console;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.security.enterprise.authentication.mechanism.http.OpenIdAuthenticationMechanismDefinition;
import jakarta.security.enterprise.authentication.mechanism.http.openid.ClaimsDefinition;

/**
 * How people sign in: Jakarta Security's OpenID Connect mechanism (authorization code flow, state and nonce
 * kept in the console's session), portable across Payara and WildFly. It acts only on what the container
 * protects — the console's pages — and on its own callback; the API and MCP endpoints, which authenticate
 * agents' bearer tokens themselves, pass through it untouched.
 *
 * <p>The provider and client come from {@link ConsoleSettings} by EL. JWKS timeouts of 5 s, not the default
 * 500 ms: a provider that has just started, on a loaded host, answers slower than that. Tokens are not
 * refreshed: the console's own idle and absolute expiry ({@link ConsoleGuard}) end a session, and signing
 * out ends the provider's session too — done by {@code ConsoleServlet} itself, not through the mechanism's logout,
 * which on WildFly 39 redirects to a wrong address.
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

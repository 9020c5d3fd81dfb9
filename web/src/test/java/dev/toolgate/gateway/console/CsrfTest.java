package dev.toolgate.gateway.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** When a state-changing console request is refused as forged ({@link Csrf#refusal}), one rule per test. */
class CsrfTest {

    private static final String TOKEN = "3q2-7wEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    private static final String OWN = "https://console.example.com";
    /** The request's Host header, as the browser sent it for {@link #OWN}. */
    private static final String HOST = "console.example.com";

    @Test
    void letsASameOriginFormWithTheSessionsTokenThrough() {
        assertNull(Csrf.refusal(TOKEN, TOKEN, OWN, "same-origin", HOST));
    }

    @Test
    void letsTheTokenAloneThroughWhenTheBrowserSendsNeitherHeader() {
        // an older browser, or a privacy extension stripping them: the token is the defence that always holds
        assertNull(Csrf.refusal(TOKEN, TOKEN, null, null, HOST));
    }

    @Test
    void refusesAFormWithoutTheToken() {
        assertTrue(Csrf.refusal(TOKEN, null, OWN, "same-origin", HOST).contains("security token"));
        assertTrue(Csrf.refusal(TOKEN, "", OWN, "same-origin", HOST).contains("security token"));
    }

    @Test
    void refusesAFormWithAnotherToken() {
        assertTrue(Csrf.refusal(TOKEN, TOKEN + "x", OWN, "same-origin", HOST).contains("security token"));
        assertTrue(Csrf.refusal(TOKEN, TOKEN.toUpperCase(), OWN, "same-origin", HOST).contains("security token"));
    }

    @Test
    void refusesAFormWhenTheSessionHasNoToken() {
        assertNotNull(Csrf.refusal(null, TOKEN, OWN, "same-origin", HOST));
        assertNotNull(Csrf.refusal(null, null, null, null, HOST), "two absent tokens are not a match");
    }

    @Test
    void refusesAnotherOriginsHost() {
        assertEquals("the request came from another origin", Csrf.refusal(TOKEN, TOKEN, "https://evil.example.com", null, HOST));
        assertEquals("the request came from another origin",
                Csrf.refusal(TOKEN, TOKEN, "https://console.example.com.evil.example", null, HOST));
    }

    @Test
    void refusesAnotherOriginsPort() {
        assertEquals("the request came from another origin", Csrf.refusal(TOKEN, TOKEN, "https://console.example.com:8443", null, HOST));
        assertEquals("the request came from another origin",
                Csrf.refusal(TOKEN, TOKEN, "http://localhost:8081", null, "localhost:8080"));
    }

    @Test
    void takesTheBrowsersSchemeForTheServersBehindAProxyThatEndsTls() {
        // the browser is on https://console.example.com; the server, behind the proxy, sees http and the same Host
        assertNull(Csrf.refusal(TOKEN, TOKEN, OWN, "same-origin", HOST));
        assertEquals("the request came from another origin", Csrf.refusal(TOKEN, TOKEN, "https://console.example.com", null, "backend:8080"),
                "a proxy that rewrites Host must be told to keep it");
    }

    @Test
    void refusesARequestWithoutAHost() {
        assertEquals("the request came from another origin", Csrf.refusal(TOKEN, TOKEN, OWN, null, null));
        assertEquals("the request came from another origin", Csrf.refusal(TOKEN, TOKEN, OWN, null, " "));
    }

    @Test
    void refusesAnOpaqueOrUnreadableOrigin() {
        assertEquals("the request came from another origin", Csrf.refusal(TOKEN, TOKEN, "null", null, HOST), "a sandboxed frame's");
        assertEquals("the request came from another origin", Csrf.refusal(TOKEN, TOKEN, "https://exa mple.com", null, HOST));
    }

    @Test
    void takesAnOriginWithTheDefaultPortSpelledOutAsTheSame() {
        assertNull(Csrf.refusal(TOKEN, TOKEN, "https://console.example.com:443", "same-origin", HOST));
        assertNull(Csrf.refusal(TOKEN, TOKEN, "https://console.example.com", "same-origin", "console.example.com:443"));
        assertNull(Csrf.refusal(TOKEN, TOKEN, "http://localhost:80", null, "localhost"));
        assertNull(Csrf.refusal(TOKEN, TOKEN, "http://localhost:8080", null, "localhost:8080"));
    }

    @Test
    void comparesHostsIgnoringCase() {
        assertNull(Csrf.refusal(TOKEN, TOKEN, "HTTPS://Console.Example.COM", null, HOST));
    }

    @Test
    void refusesWhatTheBrowserSaysCameFromAnotherSite() {
        assertTrue(Csrf.refusal(TOKEN, TOKEN, null, "cross-site", HOST).contains("another site (cross-site)"));
    }

    @Test
    void refusesASameSiteRequestFromAnotherOrigin() {
        // a sibling subdomain is the same site but not this console
        assertTrue(Csrf.refusal(TOKEN, TOKEN, null, "same-site", HOST).contains("same-site"));
    }

    @Test
    void refusesARequestThePersonDidNotMakeFromAPage() {
        // "none": typed into the address bar or opened from a bookmark — a console form is never sent that way
        assertTrue(Csrf.refusal(TOKEN, TOKEN, null, "none", HOST).contains("(none)"));
    }

    @Test
    void refusesOnTheBrowsersWordEvenWithTheRightToken() {
        assertNotNull(Csrf.refusal(TOKEN, TOKEN, OWN, "cross-site", HOST));
        assertNotNull(Csrf.refusal(TOKEN, TOKEN, "https://evil.example.com", "same-origin", HOST));
    }

    @Test
    void makesAFreshUnguessableTokenEachTime() {
        String one = Csrf.newToken();
        assertNotEquals(one, Csrf.newToken());
        assertTrue(one.matches("[A-Za-z0-9_-]{43}"), one);
    }
}

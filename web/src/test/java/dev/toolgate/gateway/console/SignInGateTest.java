package dev.toolgate.gateway.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.gateway.edge.ServletFakes;
import jakarta.security.auth.message.AuthException;
import jakarta.security.auth.message.AuthStatus;
import jakarta.security.auth.message.MessageInfo;
import jakarta.security.auth.message.callback.CallerPrincipalCallback;
import jakarta.security.auth.message.config.AuthConfigProvider;
import jakarta.security.auth.message.config.ServerAuthConfig;
import jakarta.security.auth.message.config.ServerAuthContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;

import javax.security.auth.Subject;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/** What the gate answers when the sign-in fails on its way to the identity provider, and which requests skip the sign-in. */
class SignInGateTest {

    private final AtomicBoolean up = new AtomicBoolean(true);
    private final AtomicLong now = new AtomicLong(0);
    private final IdentityProviderCheck provider = new IdentityProviderCheck(() -> CompletableFuture.completedFuture(up.get()), now::get);

    /** The response as written: status, headers, body; and whether it counts as committed. */
    private static final class Written {
        int status = 200;
        final Map<String, String> headers = new HashMap<>();
        final ByteArrayOutputStream body = new ByteArrayOutputStream();
        boolean committed;
        boolean reset;
    }

    @Test
    void aSignInThatFailsBecauseTheProviderWentDownGetsThePageNotTheContainersError() throws Exception {
        assertTrue(provider.answers()); // seen answering two seconds ago: the gate lets the sign-in try
        now.addAndGet(Duration.ofSeconds(2).toNanos());
        up.set(false);
        Written written = new Written();
        written.headers.put("Location", "https://idp.example/auth"); // begun by the mechanism before it failed

        AuthStatus status = gate(failingSignIn()).validateRequest(message(written), null, null);

        assertEquals(AuthStatus.SEND_CONTINUE, status);
        assertEquals(503, written.status);
        assertTrue(written.reset, "what the mechanism began is reset");
        assertEquals("5", written.headers.get("Retry-After"));
        assertTrue(written.body.toString(StandardCharsets.UTF_8).contains("id=\"provider-down\""));
    }

    @Test
    void aSignInThatFailsWithTheProviderAnsweringFailsAsItDid() throws Exception {
        assertTrue(provider.answers());
        now.addAndGet(Duration.ofSeconds(2).toNanos());
        assertThrows(AuthException.class, () -> gate(failingSignIn()).validateRequest(message(new Written()), null, null));
    }

    @Test
    void aResponseAlreadySentIsNotWrittenOver() throws Exception {
        assertTrue(provider.answers());
        now.addAndGet(Duration.ofSeconds(2).toNanos());
        up.set(false);
        Written written = new Written();
        written.committed = true;
        assertThrows(AuthException.class, () -> gate(failingSignIn()).validateRequest(message(written), null, null));
        assertEquals(0, written.body.size());
    }

    @Test
    void anApiMcpOrNotificationRequestSkipsTheSignInAndIsLetThroughUnauthenticated() throws Exception {
        for (String path : new String[] {"/api", "/mcp", "/notifications"}) {
            List<Callback> told = new ArrayList<>();
            Subject client = new Subject();
            MessageInfo message = message(new Written(), path, false);

            ServerAuthContext gate = gate(failingSignIn(), provider, callbacks -> told.addAll(List.of(callbacks)));

            assertEquals(AuthStatus.SUCCESS, gate.validateRequest(message, client, null), path);
            assertEquals(AuthStatus.SEND_SUCCESS, gate.secureResponse(message, null), path);
            CallerPrincipalCallback caller = (CallerPrincipalCallback) told.get(0);
            assertSame(client, caller.getSubject());
            assertNull(caller.getPrincipal());
            assertNull(caller.getName());
        }
    }

    @Test
    void theSignInStillRunsForEveryOtherPathAndWithTheConsoleOff() throws Exception {
        for (IdentityProviderCheck console : new IdentityProviderCheck[] {provider, null}) {
            for (String path : new String[] {"/console", "/api/v1/operations", "/.well-known/oauth-protected-resource/mcp", ""}) {
                assertThrows(AuthException.class, () -> gate(failingSignIn(), console, callbacks -> { })
                        .validateRequest(message(new Written(), path, false), null, null), path);
            }
        }
    }

    @Test
    void aProtectedRequestIsNeverTakenForAnApiOne() throws Exception {
        up.set(true);
        assertThrows(AuthException.class, () -> gate(failingSignIn(), provider, callbacks -> { })
                .validateRequest(message(new Written(), "/api", true), null, null));
    }

    private ServerAuthContext gate(ServerAuthContext signIn) throws AuthException {
        return gate(signIn, provider, null);
    }

    private ServerAuthContext gate(ServerAuthContext signIn, IdentityProviderCheck console, CallbackHandler container) throws AuthException {
        AuthConfigProvider provided = (AuthConfigProvider) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {AuthConfigProvider.class},
                (proxy, method, args) -> method.getName().equals("getServerAuthConfig") ? (ServerAuthConfig) Proxy.newProxyInstance(
                        getClass().getClassLoader(), new Class<?>[] {ServerAuthConfig.class},
                        (p, m, a) -> m.getName().equals("getAuthContext") ? signIn : null) : null);
        return new SignInGate(provided, console).getServerAuthConfig("HttpServlet", "app", container).getAuthContext("id", null, Map.of());
    }

    private static ServerAuthContext failingSignIn() {
        return (ServerAuthContext) Proxy.newProxyInstance(SignInGateTest.class.getClassLoader(), new Class<?>[] {ServerAuthContext.class},
                (proxy, method, args) -> {
                    throw new AuthException("the provider's metadata could not be read");
                });
    }

    private static MessageInfo message(Written written) {
        return message(written, "/console", true);
    }

    /** A request for {@code servletPath} (the container's mapping), protected or not, by someone not signed in. */
    private static MessageInfo message(Written written, String servletPath, boolean mandatory) {
        HttpServletRequest request = (HttpServletRequest) Proxy.newProxyInstance(SignInGateTest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) ->
                        method.getName().equals("getServletPath") ? servletPath : null); // no session: not signed in
        ServletOutputStream out = ServletFakes.outputInto(written.body);
        HttpServletResponse response = (HttpServletResponse) Proxy.newProxyInstance(SignInGateTest.class.getClassLoader(),
                new Class<?>[] {HttpServletResponse.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "isCommitted" -> written.committed;
                    case "reset" -> {
                        written.reset = true;
                        written.headers.clear();
                        yield null;
                    }
                    case "setStatus" -> {
                        written.status = (Integer) args[0];
                        yield null;
                    }
                    case "setHeader" -> {
                        written.headers.put((String) args[0], (String) args[1]);
                        yield null;
                    }
                    case "getOutputStream" -> out;
                    default -> null;
                });
        Map<String, Object> map = new HashMap<>();
        if (mandatory) {
            map.put("jakarta.security.auth.message.MessagePolicy.isMandatory", "true");
        }
        return new MessageInfo() {
            @Override
            public Object getRequestMessage() {
                return request;
            }

            @Override
            public Object getResponseMessage() {
                return response;
            }

            @Override
            public void setRequestMessage(Object message) {
            }

            @Override
            public void setResponseMessage(Object message) {
            }

            @SuppressWarnings({"rawtypes", "unchecked"})
            @Override
            public Map getMap() {
                return map;
            }
        };
    }
}

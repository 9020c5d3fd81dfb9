package dev.toolgate.gateway.rest;

import dev.toolgate.access.Caller;
import dev.toolgate.access.AuthenticatedCallers;
import dev.toolgate.gateway.edge.BearerToken;
import dev.toolgate.gateway.edge.ProblemException;
import dev.toolgate.gateway.edge.ProblemType;
import dev.toolgate.gateway.edge.RateLimiter;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.ext.Provider;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Every call carries {@code Authorization: Bearer <token>}: 401 without a valid one, before anything else is looked at
 * (so an anonymous caller learns nothing, not even which paths exist). Then the caller's rate limit, and the body's size.
 */
@Provider
@PreMatching
@Priority(Priorities.AUTHENTICATION)
@ApplicationScoped
public class Authentication implements ContainerRequestFilter {

    @Inject
    AuthenticatedCallers callers;
    @Inject
    RateLimiter rateLimiter;

    /** 64 KiB: a v1 command is a few hundred bytes; anything near this is a mistake or an attack. */
    @Inject
    @ConfigProperty(name = "toolgate.max-body-bytes", defaultValue = "65536")
    long maxBodyBytes;

    /** Paths (under {@code /api}) answered without a token: probes and the API description. */
    static final Set<String> PUBLIC_PATHS = Set.of("health/live", "health/ready", "openapi.yaml");

    @Override
    public void filter(ContainerRequestContext request) {
        if (PUBLIC_PATHS.contains(withoutEdgeSlashes(request.getUriInfo().getPath())) && "GET".equals(request.getMethod())) {
            return;
        }
        Caller caller = admit(request.getHeaders().get(HttpHeaders.AUTHORIZATION), request.getLength());
        request.setEntityStream(new Limited(request.getEntityStream(), maxBodyBytes));
        request.setSecurityContext(new CallerContext(caller, request.getSecurityContext().isSecure()));
    }

    /**
     * The caller, from {@code Authorization} and {@code Content-Length} (-1: none), or the refusal: 401, 429 (the call
     * counts against the rate), 413. Public: {@link SubmitDoor} calls it through the container's proxy.
     */
    public Caller admit(List<String> authorization, long length) {
        Caller caller = bearer(authorization)
                .flatMap(callers::authenticate)
                .orElseThrow(() -> new ProblemException(ProblemType.UNAUTHENTICATED,
                        "send Authorization: Bearer <token> with a live token"));
        Duration wait = rateLimiter.acquire(caller.principalId());
        if (!wait.isZero()) {
            throw new ProblemException(ProblemType.RATE_LIMITED, "too many requests from " + caller.principalId())
                    .retryAfter(wait);
        }
        if (length > maxBodyBytes) {
            throw tooLarge();
        }
        return caller;
    }

    public ProblemException tooLarge() {
        return new ProblemException(ProblemType.PAYLOAD_TOO_LARGE, "the body may be at most " + maxBodyBytes + " bytes");
    }

    public long maxBodyBytes() {
        return maxBodyBytes;
    }

    /** {@code path} without its leading and trailing slashes (by hand: this runs on every request). */
    static String withoutEdgeSlashes(String path) {
        int from = 0;
        int to = path.length();
        while (from < to && path.charAt(from) == '/') {
            from++;
        }
        while (to > from && path.charAt(to - 1) == '/') {
            to--;
        }
        return path.substring(from, to);
    }

    private static Optional<String> bearer(List<String> authorization) {
        return authorization == null || authorization.size() != 1 ? Optional.empty() : BearerToken.of(authorization.get(0));
    }

    /** Stops reading a body without Content-Length (chunked) once it passes the limit. */
    private static final class Limited extends FilterInputStream {
        private final long limit;
        private long read;

        Limited(InputStream in, long limit) {
            super(in);
            this.limit = limit;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            count(b < 0 ? 0 : 1);
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            count(Math.max(0, n));
            return n;
        }

        private void count(int n) {
            read += n;
            if (read > limit) {
                throw new WebApplicationException(413);
            }
        }
    }
}

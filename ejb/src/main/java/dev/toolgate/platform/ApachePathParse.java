package dev.toolgate.platform;

import org.apache.hc.client5.http.classic.ExecChain;
import org.apache.hc.client5.http.impl.ChainElement;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpException;

import java.io.IOException;

/**
 * Apache HttpClient's protocol step parses every request's path, percent-decoding each segment, only to scope
 * authentication; with authentication off the parse is wasted, and for 1C's long paths of encoded Cyrillic it was a
 * twentieth of a new operation's CPU (docs/benchmark.md). The path is kept aside while that step runs and put back
 * by the step after it, before anything is written: the request line stays the adapter's
 * ({@code TargetHttpClientTest.anEncodedPathAndQueryReachTheTargetAsWritten}). Needed as long as the client's
 * {@code ProtocolExec} calls {@code RequestSupport.extractPathPrefix} with authentication disabled; a profile of the
 * benchmark shows whether it still does.
 */
public final class ApachePathParse {

    private static final String PATH = ApachePathParse.class.getName() + ".path";

    private ApachePathParse() {
    }

    /** {@code builder}, with authentication off, made to skip the protocol step's parse of the path. */
    public static HttpClientBuilder skipped(HttpClientBuilder builder) {
        return builder.addExecInterceptorBefore(ChainElement.PROTOCOL.name(), "toolgate-path-aside", ApachePathParse::aside)
                .addExecInterceptorAfter(ChainElement.PROTOCOL.name(), "toolgate-path-back", ApachePathParse::back);
    }

    private static ClassicHttpResponse aside(ClassicHttpRequest request, ExecChain.Scope scope, ExecChain chain)
            throws IOException, HttpException {
        scope.clientContext.setAttribute(PATH, request.getPath());
        request.setPath("/");
        return chain.proceed(request, scope);
    }

    private static ClassicHttpResponse back(ClassicHttpRequest request, ExecChain.Scope scope, ExecChain chain)
            throws IOException, HttpException {
        request.setPath((String) scope.clientContext.getAttribute(PATH));
        return chain.proceed(request, scope);
    }
}

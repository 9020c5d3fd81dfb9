package dev.toolgate.platform;

import org.apache.hc.client5.http.classic.ExecChain;
import org.apache.hc.client5.http.impl.ChainElement;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpException;

import java.io.IOException;

/**
 * Apache HttpClient's protocol step percent-decodes every request's path only to scope authentication, which is off:
 * wasted, and costly for 1C's long Cyrillic paths (docs/benchmark.md, "Where the gateway's CPU goes"). The path is
 * kept aside while that step runs and put back by the step after it, before anything is written
 * ({@code TargetHttpClientTest.anEncodedPathAndQueryReachTheTargetAsWritten}). Needed while {@code ProtocolExec} calls
 * {@code RequestSupport.extractPathPrefix} with authentication disabled; a benchmark profile shows whether it still does.
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

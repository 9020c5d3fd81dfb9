package dev.toolgate.gateway.rest;

import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The hand-written OpenAPI document names every resource method and every problem type. */
class OpenApiDocumentTest {

    private static final List<Class<?>> RESOURCES = List.of(OperationsResource.class, ApprovalsResource.class,
            EscalationsResource.class, ReconciliationsResource.class, PrincipalsResource.class, MetricsResource.class,
            HealthResource.class, OpenApiResource.class);

    private final String document = OpenApiResource.read();

    @Test
    void describesEveryResourceMethod() {
        List<String> missing = new ArrayList<>();
        for (Class<?> resource : RESOURCES) {
            String base = resource.getAnnotation(Path.class).value();
            for (Method method : resource.getDeclaredMethods()) {
                String verb = method.isAnnotationPresent(GET.class) ? "get" : method.isAnnotationPresent(POST.class) ? "post"
                        : method.isAnnotationPresent(DELETE.class) ? "delete" : null;
                if (verb == null) {
                    continue;
                }
                Path sub = method.getAnnotation(Path.class);
                String path = "/" + base + (sub == null ? "" : "/" + sub.value());
                path = template(path);
                int at = document.indexOf("\n  " + path + ":\n");
                int next = at < 0 ? -1 : document.indexOf("\n  /", at + 3);
                String section = at < 0 ? "" : document.substring(at, next < 0 ? document.indexOf("\ncomponents:") : next);
                if (!section.contains("\n    " + verb + ":")) {
                    missing.add(verb.toUpperCase(Locale.ROOT) + " " + path);
                }
            }
        }
        assertTrue(missing.isEmpty(), "not in openapi.yaml: " + missing);
    }

    /** {@code /v1/x/{id: [0-9]{1,18}}} → {@code /v1/x/{id}}: JAX-RS regular expressions dropped, braces balanced. */
    private static String template(String path) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < path.length()) {
            char c = path.charAt(i);
            if (c != '{') {
                out.append(c);
                i++;
                continue;
            }
            int depth = 0;
            int colon = -1;
            int j = i;
            for (; j < path.length(); j++) {
                depth += path.charAt(j) == '{' ? 1 : path.charAt(j) == '}' ? -1 : 0;
                if (path.charAt(j) == ':' && colon < 0) {
                    colon = j;
                }
                if (depth == 0) {
                    break;
                }
            }
            out.append('{').append(path, i + 1, colon < 0 ? j : colon).append('}');
            i = j + 1;
        }
        return out.toString().replace(" ", "");
    }

    @Test
    void listsEveryProblemType() {
        for (ProblemType type : ProblemType.values()) {
            assertTrue(document.contains("\"" + type.uri() + "\""), type.uri());
        }
    }
}

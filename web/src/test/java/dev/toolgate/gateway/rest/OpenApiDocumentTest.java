package dev.toolgate.gateway.rest;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.gateway.edge.ProblemType;
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

    /**
     * Every resource class of the API, found in its package rather than listed: a resource added later is held to
     * the document too, and so is fed the hostile table of the end-to-end suite that reads its methods from the document.
     */
    private static final List<Class<?>> RESOURCES = resources();

    private final String document = OpenApiResource.read();

    private static List<Class<?>> resources() {
        try (var files = java.nio.file.Files.list(java.nio.file.Path.of(OperationsResource.class.getResource("OperationsResource.class").toURI()).getParent())) {
            List<Class<?>> found = new ArrayList<>();
            for (java.nio.file.Path file : files.toList()) {
                String name = file.getFileName().toString();
                if (name.endsWith(".class") && !name.contains("$")) {
                    Class<?> type = Class.forName(OperationsResource.class.getPackageName() + "." + name.substring(0, name.length() - 6));
                    if (type.isAnnotationPresent(Path.class)) {
                        found.add(type);
                    }
                }
            }
            return found;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void findsTheResourcesItHoldsToTheDocument() {
        assertTrue(RESOURCES.contains(OperationsResource.class) && RESOURCES.contains(ProcessesResource.class)
                && RESOURCES.contains(ProcessTypesResource.class) && RESOURCES.size() >= 10, "resources: " + RESOURCES);
    }

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

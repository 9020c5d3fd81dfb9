package dev.toolgate.gateway.edge;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;

/** Servlet API objects for the unit tests of the doors and the edge: an interface answered method by method, a body kept in memory. */
public final class ServletFakes {

    private ServletFakes() {
    }

    /** What a fake answers to a call of {@code method} (null, false or 0 where it has nothing to say). */
    public interface Reply {
        Object of(String method, Object[] args);
    }

    @SuppressWarnings("unchecked")
    public static <T> T proxy(Class<T> type, Reply reply) {
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (self, method, args) -> {
            Object value = reply.of(method.getName(), args);
            Class<?> returns = method.getReturnType();
            if (value != null || !returns.isPrimitive() || returns == void.class) {
                return value;
            }
            return returns == boolean.class ? false : returns == long.class ? 0L : 0;
        });
    }

    /** A response body written into {@code body}. */
    public static ServletOutputStream outputInto(ByteArrayOutputStream body) {
        return new ServletOutputStream() {
            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setWriteListener(WriteListener listener) {
            }

            @Override
            public void write(int b) {
                body.write(b);
            }
        };
    }
}

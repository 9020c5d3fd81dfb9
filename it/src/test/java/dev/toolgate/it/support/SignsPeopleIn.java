package dev.toolgate.it.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A suite that signs people in through the run's {@link Keycloak}: such suites run last in lane 1 ({@link RunOrder}),
 * so that Keycloak's first start, which builds the server, overlaps the suites before (it is started by the first
 * that needs it: in a full run ConsoleIT's gateway started ahead of it, {@code ConsoleStack.Ahead}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
public @interface SignsPeopleIn {
}

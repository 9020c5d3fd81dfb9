package dev.toolgate.it.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A suite that signs people in through the run's {@link Keycloak}: a run that holds one starts Keycloak as the run
 * begins ({@link Keycloak.Early}), so that its first start, which builds the server, overlaps the suites before.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
public @interface SignsPeopleIn {
}

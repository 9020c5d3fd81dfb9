package dev.toolgate.gateway.rest;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A resource method anyone may call without a token: health probes and the API description, which
 * reveal nothing about operations. Its path must also be in {@link Authentication#PUBLIC_PATHS}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Unauthenticated {
}

package dev.toolgate.gateway.rest;

import dev.toolgate.access.Role;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** The roles that may call a resource method; a method without it is refused to everyone. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Allowed {
    Role[] value();
}

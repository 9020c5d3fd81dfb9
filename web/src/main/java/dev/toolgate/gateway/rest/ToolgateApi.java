package dev.toolgate.gateway.rest;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

import java.util.Map;

@ApplicationPath("api")
public class ToolgateApi extends Application {

    /**
     * Jersey's (Payara's) Bean Validation stage off: no resource here carries a constraint (each validates its input
     * itself, into problem+json), yet the stage ran its validator on every call. RESTEasy (WildFly) ignores the name.
     */
    @Override
    public Map<String, Object> getProperties() {
        return Map.of("jersey.config.beanValidation.disable.server", true);
    }
}

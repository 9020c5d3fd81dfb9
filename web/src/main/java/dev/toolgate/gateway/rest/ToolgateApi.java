package dev.toolgate.gateway.rest;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

@ApplicationPath("api")
public class ToolgateApi extends Application {
}

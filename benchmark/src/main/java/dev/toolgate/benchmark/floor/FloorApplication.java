package dev.toolgate.benchmark.floor;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The floor endpoints at the WAR's context root ({@code /floor}). */
@ApplicationPath("/")
public class FloorApplication extends Application {
}

package dev.toolgate.gateway.edge;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;

import java.util.EnumSet;

/**
 * Puts {@link Stopping}, then {@link InputEdge}, in front of every path, by code: an annotated filter's order is
 * unspecified, and the console's guard logs what a request names, so only checked values may reach it.
 */
@WebListener
public class EdgeRegistration implements ServletContextListener {

    private final Thread stopping = new Thread(Stopping::begin, "toolgate-stopping");

    @Override
    public void contextInitialized(ServletContextEvent event) {
        FilterRegistration.Dynamic stop = event.getServletContext().addFilter("stopping", Stopping.class);
        stop.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
        FilterRegistration.Dynamic edge = event.getServletContext().addFilter("input-edge", InputEdge.class);
        edge.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
        Runtime.getRuntime().addShutdownHook(stopping);
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        try {
            Runtime.getRuntime().removeShutdownHook(stopping); // undeployed from a server that goes on running
        } catch (IllegalStateException shutdownUnderway) {
            // the JVM is stopping: the hook has run or is running
        }
    }
}

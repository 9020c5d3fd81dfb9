package dev.toolgate.gateway.edge;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;

import java.util.EnumSet;

/**
 * Puts {@link InputEdge} in front of every path. By code, matched before every other filter: an annotated
 * filter's order among others is unspecified, and the console's guard (registered after, matched after) logs
 * what a request names — only checked values may reach it.
 */
@WebListener
public class EdgeRegistration implements ServletContextListener {

    @Override
    public void contextInitialized(ServletContextEvent event) {
        FilterRegistration.Dynamic edge = event.getServletContext().addFilter("input-edge", InputEdge.class);
        edge.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
    }
}

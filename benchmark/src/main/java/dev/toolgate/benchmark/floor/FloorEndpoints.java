package dev.toolgate.benchmark.floor;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Two endpoints on the gateway's own server, the floors a replay and a request are measured against:
 * one that does nothing, one that reads one journal row by its primary key through a pooled datasource.
 */
@Path("/")
@ApplicationScoped
public class FloorEndpoints {

    @Resource(lookup = "java:app/jdbc/floor")
    private DataSource journal;

    @GET
    @Path("ping")
    @Produces(MediaType.APPLICATION_JSON)
    public String ping() {
        return "{\"ok\":true}";
    }

    @GET
    @Path("read")
    @Produces(MediaType.APPLICATION_JSON)
    public Response read(@QueryParam("tenant") String tenant, @QueryParam("key") String key) throws SQLException {
        try (Connection c = journal.getConnection(); PreparedStatement find = c.prepareStatement(
                "SELECT status, response_json FROM agent_operation_log WHERE tenant = ? AND operation_key = ?")) {
            find.setString(1, tenant);
            find.setString(2, key);
            try (ResultSet row = find.executeQuery()) {
                return row.next() ? Response.ok(row.getString(2)).build() : Response.status(404).build();
            }
        }
    }
}

package dev.toolgate.gateway.rest;

import dev.toolgate.access.Role;
import dev.toolgate.process.ProcessJournal;
import dev.toolgate.process.ProcessStatus;
import dev.toolgate.search.Backlog;
import dev.toolgate.metrics.GatewayMetrics;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Response;

import java.util.Locale;
import java.util.Map;

/**
 * {@code GET /api/metrics}: this instance's figures in the Prometheus text format. Scraped with an
 * operator's or auditor's bearer token (Prometheus {@code authorization.credentials}).
 */
@Path("metrics")
@RequestScoped
public class MetricsResource {

    static final String PROMETHEUS = "text/plain; version=0.0.4; charset=utf-8";

    @Inject
    GatewayMetrics metrics;
    @Inject
    Backlog backlog;
    @Inject
    ProcessJournal processes;

    @GET
    @Produces({PROMETHEUS, Problem.MEDIA_TYPE})
    @Allowed({Role.OPERATOR, Role.AUDITOR, Role.ADMIN})
    public Response scrape() {
        StringBuilder out = new StringBuilder();
        metrics.write(out);
        Backlog.Figures operations = backlog.now();
        out.append("# HELP toolgate_operations_unfinished Operations not yet finished, by status (escalated apart); all instances\n")
                .append("# TYPE toolgate_operations_unfinished gauge\n");
        for (String status : new String[] {"started", "unknown", "escalated", "failed_retryable", "pending_approval"}) {
            out.append("toolgate_operations_unfinished{status=\"").append(status).append("\"} ")
                    .append(operations.unfinished().getOrDefault(status, 0L)).append('\n');
        }
        out.append("# HELP toolgate_reconcile_lag_seconds How long the most overdue look-up of an unknown outcome has waited\n")
                .append("# TYPE toolgate_reconcile_lag_seconds gauge\n")
                .append("toolgate_reconcile_lag_seconds ").append(String.format(Locale.ROOT, "%.3f", operations.reconcileLagSeconds())).append('\n');
        out.append("# HELP toolgate_processes_unfinished Processes not yet finished, by status; all instances\n")
                .append("# TYPE toolgate_processes_unfinished gauge\n");
        Map<ProcessStatus, Long> processCounts = processes.unfinished();
        for (ProcessStatus status : new ProcessStatus[] {ProcessStatus.RUNNING, ProcessStatus.AWAITING_APPROVAL,
                ProcessStatus.COMPENSATING, ProcessStatus.NEEDS_ATTENTION}) {
            out.append("toolgate_processes_unfinished{status=\"").append(status.dbName()).append("\"} ")
                    .append(processCounts.getOrDefault(status, 0L)).append('\n');
        }
        return Response.ok(out.toString(), PROMETHEUS).build();
    }
}

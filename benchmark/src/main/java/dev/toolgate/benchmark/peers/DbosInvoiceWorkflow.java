package dev.toolgate.benchmark.peers;

import dev.dbos.transact.DBOS;
import dev.dbos.transact.workflow.Workflow;

import java.net.http.HttpClient;

/**
 * The workflow as DBOS's guide writes one: one step, the call to 1C, whose result DBOS checkpoints in its system
 * database; the workflow's id is the agent's idempotency key, so a second call with it answers the recorded output
 * without running the step again.
 */
final class DbosInvoiceWorkflow implements DbosInvoices {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private final DBOS dbos;
    private final String simulatorsUrl;

    DbosInvoiceWorkflow(DBOS dbos, String simulatorsUrl) {
        this.dbos = dbos;
        this.simulatorsUrl = simulatorsUrl;
    }

    @Override
    @Workflow(name = "invoice.create")
    public String create(String key, String payload) throws Exception {
        // the payload is the agent's, as the gateway gets it; the document is the same for every call, as the gateway's
        return dbos.runStep(() -> OneCInvoice.send(HTTP, simulatorsUrl, "dbos/" + key), "send to 1C");
    }
}

package dev.toolgate.benchmark.peers;

/** The DBOS peer's workflow as its proxy is called: DBOS proxies an interface (DBOS#registerProxy). */
public interface DbosInvoices {

    /** Makes the invoice for the order in {@code payload} once per workflow id, which is the agent's key; answers the document. */
    String create(String key, String payload) throws Exception;
}

package dev.toolgate.reconcile.job;

import dev.toolgate.lifecycle.DueOperations;
import dev.toolgate.operation.OperationView;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemReader;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Hands the job one due operation at a time, claiming them in small batches. Each claim commits its own lease at once,
 * so what a crashed run had claimed is simply claimed again once the lease expires; the checkpoint only counts.
 */
@Named
@Dependent
public class DueOperationReader extends AbstractItemReader {

    /**
     * One claim per chunk (the chunk's item-count is the same). 20: with a target limited to one look-up at a time and
     * every item taking the longest an attempt with its retries can (~30 s), a chunk still ends inside the step's 900 s
     * transaction timeout; {@link ReconcileWriter} renews the leases of items that wait.
     */
    static final int CLAIM_SIZE = 20;

    @Inject
    DueOperations dueOperations;

    @Inject
    @BatchProperty(name = "max-items")
    String maxItems;

    private final Deque<OperationView> claimed = new ArrayDeque<>();
    private long read;

    @Override
    public void open(Serializable checkpoint) {
        read = checkpoint == null ? 0 : (Long) checkpoint;
    }

    @Override
    public Object readItem() {
        if (read >= limit()) {
            return null;
        }
        if (claimed.isEmpty()) {
            claimed.addAll(dueOperations.claim((int) Math.min(CLAIM_SIZE, limit() - read)));
        }
        OperationView next = claimed.poll();
        if (next != null) {
            read++;
        }
        return next;
    }

    @Override
    public Serializable checkpointInfo() {
        return read;
    }

    private long limit() {
        return maxItems == null || maxItems.isBlank() ? Long.MAX_VALUE : Long.parseLong(maxItems.trim());
    }
}

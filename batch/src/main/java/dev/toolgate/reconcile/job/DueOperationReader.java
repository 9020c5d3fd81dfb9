package dev.toolgate.reconcile.job;

import dev.toolgate.journal.DueOperations;
import dev.toolgate.journal.OperationView;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemReader;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Hands the job one due operation at a time, claiming them in small batches. Each claim commits its
 * own lease at once, so what a crashed run had claimed is simply claimed again once the lease expires;
 * the checkpoint only counts.
 */
@Named
@Dependent
public class DueOperationReader extends AbstractItemReader {

    /**
     * One claim per chunk (the chunk's item-count is the same): 50 items, worked up to a target's limit
     * at a time, are done in seconds, far inside the lease each was claimed with.
     */
    static final int CLAIM_SIZE = 50;

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

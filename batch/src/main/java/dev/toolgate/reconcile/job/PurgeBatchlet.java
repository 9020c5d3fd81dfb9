package dev.toolgate.reconcile.job;

import dev.toolgate.journal.Retention;
import dev.toolgate.process.ProcessRetention;
import jakarta.batch.api.AbstractBatchlet;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.util.logging.Logger;

/** Purges expired operations in batches, each its own short transaction, until none is left. */
@Named
@Dependent
public class PurgeBatchlet extends AbstractBatchlet {

    private static final Logger LOG = Logger.getLogger(PurgeBatchlet.class.getName());
    private static final int BATCH = 1000; // rows per transaction: short locks, bounded WAL per commit
    private static final int PROCESS_BATCH = 100; // processes per transaction, each with up to 32 stages' operations

    @Inject
    Retention retention;
    @Inject
    ProcessRetention processRetention;

    private volatile boolean stopped;

    @Override
    public String process() {
        long purged = 0;
        int batch;
        do {
            batch = retention.purge(BATCH);
            purged += batch;
        } while (batch == BATCH && !stopped);
        long processes = 0;
        do { // then finished processes, each with its steps' operations
            batch = processRetention.purge(PROCESS_BATCH);
            processes += batch;
        } while (batch == PROCESS_BATCH && !stopped);
        long total = purged;
        long totalProcesses = processes;
        LOG.info(() -> "purged " + total + " finished operations and " + totalProcesses + " finished processes past retention");
        return "PURGED_" + total;
    }

    @Override
    public void stop() {
        stopped = true;
    }
}

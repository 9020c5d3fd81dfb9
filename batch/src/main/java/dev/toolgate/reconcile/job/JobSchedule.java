package dev.toolgate.reconcile.job;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.batch.operations.JobOperator;
import jakarta.batch.runtime.BatchRuntime;
import jakarta.batch.operations.NoSuchJobExecutionException;
import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.JobExecution;
import jakarta.batch.runtime.StepExecution;
import jakarta.ejb.Lock;
import jakarta.ejb.LockType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.Timer;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.logging.Logger;

/**
 * Starts the jobs on an interval and on demand, one run of a job at a time on this instance (the singleton's write lock
 * serializes the callbacks). Timers are not persistent: each instance runs its own; SKIP LOCKED claims keep them apart.
 */
@Singleton
@Startup
@TransactionManagement(TransactionManagementType.BEAN) // a job runs its own transactions
public class JobSchedule {

    public static final String RECONCILE = "reconcile-operations";
    public static final String PURGE = "purge-operations";

    private static final Logger LOG = Logger.getLogger(JobSchedule.class.getName());
    private static final Set<BatchStatus> RUNNING = EnumSet.of(BatchStatus.STARTING, BatchStatus.STARTED, BatchStatus.STOPPING);

    @Resource
    TimerService timers;

    /** 30 s: an unknown found at the target settles within a minute without any agent asking; 0 turns it off. */
    @Inject
    @ConfigProperty(name = "toolgate.reconcile.interval-seconds", defaultValue = "30")
    long reconcileSeconds;

    /** Hourly: retention is counted in days, so an hour's lag is immaterial; 0 turns it off. */
    @Inject
    @ConfigProperty(name = "toolgate.retention.purge-interval-seconds", defaultValue = "3600")
    long purgeSeconds;

    private final Map<String, Long> lastRuns = new HashMap<>();

    @PostConstruct
    void schedule() {
        every(RECONCILE, reconcileSeconds * 1000);
        every(PURGE, purgeSeconds * 1000);
    }

    @Timeout
    void tick(Timer timer) {
        start((String) timer.getInfo());
    }

    /** Starts {@code job} unless this instance's previous run is still going; returns the run's execution id. */
    public long start(String job) {
        JobOperator operator = BatchRuntime.getJobOperator();
        Long last = lastRuns.get(job);
        if (last != null && RUNNING.contains(operator.getJobExecution(last).getBatchStatus())) {
            return last;
        }
        long execution = operator.start(job, new Properties());
        lastRuns.put(job, execution);
        return execution;
    }

    /** Read here, not in another bean: Payara's batch runtime lets only the starting invocation read a job back. */
    @Lock(LockType.READ)
    public Optional<JobExecution> execution(String job, long executionId) {
        try {
            JobExecution execution = BatchRuntime.getJobOperator().getJobExecution(executionId);
            return job.equals(execution.getJobName()) ? Optional.of(execution) : Optional.empty();
        } catch (NoSuchJobExecutionException e) {
            return Optional.empty();
        }
    }

    /** The steps of a run, read here for the same reason as {@link #execution}. */
    @Lock(LockType.READ)
    public List<StepExecution> steps(long executionId) {
        return BatchRuntime.getJobOperator().getStepExecutions(executionId);
    }

    private void every(String job, long millis) {
        if (millis > 0) {
            timers.createIntervalTimer(millis, millis, new TimerConfig(job, false));
            LOG.info(() -> job + " runs every " + millis / 1000 + " s on this instance");
        }
    }
}

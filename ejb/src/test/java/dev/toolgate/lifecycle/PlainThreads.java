package dev.toolgate.lifecycle;

import jakarta.enterprise.concurrent.ManagedThreadFactory;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;

/** What the container's managed thread factory is to a bean outside a server: a source of plain daemon threads. */
public final class PlainThreads implements ManagedThreadFactory {

    @Override
    public Thread newThread(Runnable task) {
        Thread thread = new Thread(task);
        thread.setDaemon(true);
        return thread;
    }

    @Override
    public ForkJoinWorkerThread newThread(ForkJoinPool pool) {
        throw new UnsupportedOperationException();
    }
}

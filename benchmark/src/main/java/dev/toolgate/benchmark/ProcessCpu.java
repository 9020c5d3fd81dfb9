package dev.toolgate.benchmark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU time a process has used so far, user plus system, from {@code /proc/<pid>/stat} (proc(5)). A
 * process's own fields already sum all its threads, live and ended. For a server that forks a process
 * per connection (PostgreSQL) the tree counts: the parent, its children alive now, and — through the
 * parent's cutime/cstime — the children that ended and were reaped, so a connection closing between two
 * readings loses nothing.
 */
final class ProcessCpu {

    /** Kernel clock ticks a second (getconf CLK_TCK); 100 on every Linux this runs on. */
    private static final long TICKS_PER_SECOND = ticksPerSecond();

    private final String name;
    private final List<Long> pids;
    private final boolean withChildren;

    private ProcessCpu(String name, List<Long> pids, boolean withChildren) {
        this.name = name;
        this.pids = pids;
        this.withChildren = withChildren;
    }

    /** One or more single processes (a JVM, or the two gateway instances together). */
    static ProcessCpu of(String name, List<Long> pids) {
        return new ProcessCpu(name, pids, false);
    }

    /** A parent and all its children, alive or reaped. */
    static ProcessCpu tree(String name, long parent) {
        return new ProcessCpu(name, List.of(parent), true);
    }

    String name() {
        return name;
    }

    /** CPU milliseconds used until now. */
    double millis() {
        long ticks = 0;
        for (long pid : pids) {
            long[] own = fields(pid);
            ticks += own[0] + own[1];
            if (withChildren) {
                ticks += own[2] + own[3] + children(pid);
            }
        }
        return ticks * 1000.0 / TICKS_PER_SECOND;
    }

    /**
     * CPU milliseconds each JIT compiler thread of JVM {@code pid} has used so far, by thread id (HotSpot names
     * them "C1 CompilerThreadN" and "C2 CompilerThreadN", cut to 15 characters in {@code /proc/<pid>/task/<tid>/comm}).
     * By thread, because HotSpot may end a compiler thread and start another: a sum would then drop the ended
     * thread's time and read as a quiet JIT.
     */
    static Map<String, Double> compilerMillis(long pid) {
        Map<String, Double> threads = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            tasks.forEach(task -> {
                try {
                    String comm = Files.readString(task.resolve("comm")).trim();
                    long[] f = comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")
                            ? fieldsOrNull(task.resolve("stat")) : null;
                    if (f != null) {
                        threads.put(task.getFileName().toString(), (f[0] + f[1]) * 1000.0 / TICKS_PER_SECOND);
                    }
                } catch (IOException ended) {
                    // the thread ended between the listing and the reading
                }
            });
            return threads;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What the threads alive {@code now} spent since {@code before} (a thread started meanwhile: all of its time). */
    static double spentSince(Map<String, Double> before, Map<String, Double> now) {
        return now.entrySet().stream().mapToDouble(t -> t.getValue() - before.getOrDefault(t.getKey(), 0.0)).sum();
    }

    private static long children(long parent) {
        try (Stream<Path> all = Files.list(Path.of("/proc"))) {
            return all.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .mapToLong(p -> {
                        long[] f = fieldsOrNull(Long.parseLong(p.getFileName().toString()));
                        return f != null && f[4] == parent ? f[0] + f[1] : 0;
                    }).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long[] fields(long pid) {
        long[] f = fieldsOrNull(pid);
        if (f == null) {
            throw new IllegalStateException("process " + pid + " is gone");
        }
        return f;
    }

    /** {utime, stime, cutime, cstime, ppid}; null if the process ended meanwhile. */
    private static long[] fieldsOrNull(long pid) {
        return fieldsOrNull(Path.of("/proc", Long.toString(pid), "stat"));
    }

    /** The same of a process's or a thread's {@code stat} file; null if it ended meanwhile. */
    private static long[] fieldsOrNull(Path statFile) {
        String stat;
        try {
            stat = Files.readString(statFile);
        } catch (IOException ended) {
            return null;
        }
        // the command name (field 2) is in parentheses and may hold spaces: count fields after its ')'
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[13]), Long.parseLong(f[14]),
                Long.parseLong(f[1])};
    }

    private static long ticksPerSecond() {
        try {
            Process getconf = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(getconf.getInputStream().readAllBytes()).trim();
            return getconf.waitFor() == 0 ? Long.parseLong(out) : 100;
        } catch (IOException | NumberFormatException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }
}

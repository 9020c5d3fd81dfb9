package dev.toolgate.simulator;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/** Armed faults, consumed in arming order; each use taken is kept, so a test can tell that what it armed fired. */
final class Faults {

    private final List<Fault> armed = new ArrayList<>();
    private final List<Fault> fired = new ArrayList<>();

    synchronized void arm(Fault fault) {
        armed.add(fault);
    }

    synchronized void clear() {
        armed.clear();
        fired.clear();
    }

    /** Every use taken so far for {@code system}, in order (each with {@code times} 1). */
    synchronized List<Fault> fired(String system) {
        return fired.stream().filter(f -> f.system().equals(system)).toList();
    }

    synchronized List<Fault> armed(String system) {
        return armed.stream().filter(f -> f.system().equals(system)).toList();
    }

    /** Takes one use of the first fault matching this request, or null. */
    synchronized Fault take(String system, String method, String request) {
        for (Iterator<Fault> it = armed.iterator(); it.hasNext(); ) {
            Fault fault = it.next();
            if (fault.system().equals(system) && (fault.method() == null || fault.method().equalsIgnoreCase(method))
                    && request.contains(fault.match())) {
                it.remove();
                fired.add(new Fault(fault.system(), fault.match(), fault.method(), fault.kind(), fault.status(), fault.delayMs(), 1));
                if (fault.times() > 1) {
                    armed.add(0, new Fault(fault.system(), fault.match(), fault.method(), fault.kind(), fault.status(),
                            fault.delayMs(), fault.times() - 1));
                }
                return fault;
            }
        }
        return null;
    }
}

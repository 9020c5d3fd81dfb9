package dev.toolgate.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.ListIterator;
import java.util.Set;

/**
 * Faults armed on the notifications a system sends, consumed in arming order. Each use applies to one
 * notification to one URL ({@code early}: to one change, whatever its URLs).
 */
final class NotificationFaults {

    record Fault(String system, String match, Kind kind, long delayMs, int times) {

        boolean matches(String system, String event, String objectId) {
            return this.system.equals(system) && (event.contains(match) || objectId.contains(match));
        }
    }

    enum Kind {
        /** Never sent. */
        LOSE,
        /** Sent twice: a second copy once the first is answered. */
        DUPLICATE,
        /** Sent {@code delay_ms} late. */
        DELAY,
        /** Held back until the system's next notification has been sent, or {@code delay_ms} (2 s) if none comes. */
        REORDER,
        /** Sent from {@link Notifications#FOREIGN_SOURCE}, an address no real system sends from. */
        FOREIGN_SOURCE,
        /** YooKassa: {@code payment.succeeded} (or {@code refund.succeeded}) sent at once for an object created pending. */
        EARLY
    }

    static final Set<Kind> PER_MESSAGE = Set.of(Kind.LOSE, Kind.DUPLICATE, Kind.DELAY, Kind.REORDER, Kind.FOREIGN_SOURCE);

    private final List<Fault> armed = new ArrayList<>();

    synchronized void arm(Fault fault) {
        armed.add(fault);
    }

    synchronized void clear() {
        armed.clear();
    }

    /** Takes one use of the first armed fault of one of {@code kinds} that matches this change, or null. */
    synchronized Fault take(String system, String event, String objectId, Set<Kind> kinds) {
        for (ListIterator<Fault> it = armed.listIterator(); it.hasNext(); ) {
            Fault fault = it.next();
            if (kinds.contains(fault.kind()) && fault.matches(system, event, objectId)) {
                if (fault.times() > 1) {
                    it.set(new Fault(fault.system(), fault.match(), fault.kind(), fault.delayMs(), fault.times() - 1));
                } else {
                    it.remove();
                }
                return fault;
            }
        }
        return null;
    }
}

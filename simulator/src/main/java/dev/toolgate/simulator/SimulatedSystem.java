package dev.toolgate.simulator;

import java.util.List;
import java.util.Set;

/** One simulated business system, as the control API sees it. */
interface SimulatedSystem {

    /** The name used in {@code ?system=} and in faults: {@code 1c}, {@code bitrix24}. */
    String name();

    /** Ids of the business objects whose external-key field holds {@code key}. */
    List<String> effects(String key);

    /** {creates, lookups} received for {@code key}, faulted ones included. */
    int[] calls(String key);

    /** The create requests received for {@code key}, in order, each with the fault it met. */
    List<CallCounter.Create> creates(String key);

    void reset();

    /**
     * The kinds of state change on one existing object this system counts ({@code posting},
     * {@code cancellation}, {@code lost}); none by default.
     */
    default Set<String> stateKinds() {
        return Set.of();
    }

    /** {changed, repeated} of {@code kind} on {@code object}: see {@link StateChanges}. */
    default int[] stateChanges(String kind, String object) {
        return new int[2];
    }

    default boolean supports(Fault.Kind kind) {
        return kind != Fault.Kind.PENDING_THEN_SUCCEEDED;
    }

    /** Whether this system sends notifications that can meet {@code kind}; none by default. */
    default boolean supports(NotificationFaults.Kind kind) {
        return false;
    }
}

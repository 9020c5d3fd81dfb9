package dev.toolgate.simulator;

import java.util.List;

/** One simulated business system, as the control API sees it. */
interface SimulatedSystem {

    /** The name used in {@code ?system=} and in faults: {@code 1c}, {@code bitrix24}. */
    String name();

    /** Ids of the business objects whose external-key field holds {@code key}. */
    List<String> effects(String key);

    /** {creates, lookups} received for {@code key}, faulted ones included. */
    int[] calls(String key);

    void reset();

    default boolean supports(Fault.Kind kind) {
        return kind != Fault.Kind.PENDING_THEN_SUCCEEDED;
    }
}

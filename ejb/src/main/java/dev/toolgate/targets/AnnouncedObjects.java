package dev.toolgate.targets;

import java.util.Optional;
import java.util.Set;

/**
 * A target's announcement (a notification, an outbound event) names its object, not our key: this asks which of our
 * keys the object carries, so the operation can be looked up by its own key, which alone settles it. A read, never an
 * effect; called with no database transaction open.
 */
public interface AnnouncedObjects {

    /** The operations whose objects the target announces, and whose key {@link #downstreamKeyOf} can tell. */
    Set<String> announcedOperations();

    /**
     * The {@link Attempt#downstreamKey} object {@code objectId} carries; empty when there is no such object or this
     * gateway did not make it. Throws {@link TargetUnanswered} when the target could not be asked.
     */
    Optional<String> downstreamKeyOf(String kind, String objectId);

}

package dev.toolgate.targets;

import java.util.Optional;
import java.util.Set;

/**
 * A target that announces changes to its objects (a notification, an outbound event) names the object, not our key:
 * this asks the target which of our keys the object carries, so the operation can be found and looked up by its own
 * key. A read, never an effect; called with no database transaction open. What the answer says about the outcome is
 * never used: only the look-up by key settles an operation.
 */
public interface AnnouncedObjects {

    /** The operations whose objects the target announces, and whose key {@link #downstreamKeyOf} can tell. */
    Set<String> announcedOperations();

    /**
     * The downstream key ({@link Attempt#downstreamKey}) the target's object {@code objectId} of {@code kind} carries;
     * empty when the target has no such object or the object is not one this gateway made.
     * Throws {@link TargetUnanswered} when the target could not be asked.
     */
    Optional<String> downstreamKeyOf(String kind, String objectId);

}

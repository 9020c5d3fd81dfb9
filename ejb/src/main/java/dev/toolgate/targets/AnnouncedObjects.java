package dev.toolgate.targets;

import java.util.Optional;
import java.util.Set;

/**
 * A target's announcement names its object, not our key: this asks which of our keys the object carries, so the
 * operation is looked up by its own key, which alone settles it. A read, called with no transaction open.
 */
public interface AnnouncedObjects {

    Set<String> announcedOperations();

    /** Empty when there is no such object or we did not make it; {@link TargetUnanswered} when the target could not be asked. */
    Optional<String> downstreamKeyOf(String kind, String objectId);

}

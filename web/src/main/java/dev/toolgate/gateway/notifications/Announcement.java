package dev.toolgate.gateway.notifications;

/**
 * What the door read a target's notification body as: one the gateway acts on, an event it does not (200, so the
 * target stops sending it), not the target's format (400), from a stranger (403), or too large to read (413).
 */
sealed interface Announcement {

    /** {@code keyHint}: the downstream key the body says its object carries, or null. */
    record Change(String event, String objectKind, String objectId, String keyHint) implements Announcement {
    }

    record Ignored(String event) implements Announcement {
    }

    record Malformed(String why) implements Announcement {
    }

    /** A Bitrix24 event without the configured application token: nothing else of it is read. */
    record Forged() implements Announcement {
    }

    /** A body over the door's limit, by its Content-Length or counted while reading: read no further. */
    record TooLarge() implements Announcement {
    }
}

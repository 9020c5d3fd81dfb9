package dev.toolgate.targets;

import jakarta.json.JsonObject;

import java.util.List;

/** What a look-up by our key found at the target. */
public sealed interface Lookup {

    record Found(String objectId, JsonObject result) implements Lookup {
    }

    /** The target knows the operation but has not finished it: wait, never resend. */
    record Pending(String detail) implements Lookup {
    }

    /** No object carries our key. */
    record Absent() implements Lookup {
    }

    /** The target could not be asked. */
    record Unavailable(String errorCode) implements Lookup {
    }

    /** More than one object carries our key: a duplicate already happened and a person must look. */
    record Ambiguous(List<String> objectIds) implements Lookup {
    }
}

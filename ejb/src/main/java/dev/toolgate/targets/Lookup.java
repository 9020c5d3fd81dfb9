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

    /**
     * The target holds the object and says it failed for good (a canceled payment or refund): there
     * is no effect, and sending the same request again would not change that.
     */
    record Failed(String objectId, String errorCode, String detail) implements Lookup {
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

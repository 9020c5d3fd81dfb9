package dev.toolgate.trace;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;

/**
 * What every span of one operation carries, so a backend finds them all by {@code toolgate.operation_key} (one that
 * drops span links, as Langfuse does, joins traces by it). Identifiers only: never a payload value, token or card number.
 */
public record OperationAttributes(String tenant, String key, String operation, String target) {

    public static final AttributeKey<String> OPERATION_KEY = AttributeKey.stringKey("toolgate.operation_key");
    public static final AttributeKey<String> TENANT = AttributeKey.stringKey("toolgate.tenant");
    public static final AttributeKey<String> OPERATION = AttributeKey.stringKey("toolgate.operation");
    public static final AttributeKey<String> TARGET = AttributeKey.stringKey("toolgate.target");
    public static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("toolgate.attempt");
    public static final AttributeKey<String> STATUS = AttributeKey.stringKey("toolgate.status");
    public static final AttributeKey<String> TARGET_OBJECT_ID = AttributeKey.stringKey("toolgate.target_object_id");
    /** What the step established, in the journal's words (connection_lost, found, approved, …). */
    public static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("toolgate.outcome");
    /** OpenTelemetry's general attribute for the class of an error: the journal's error code here. */
    public static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    private static final OperationAttributes NONE = new OperationAttributes(null, null, null, null);

    public static OperationAttributes none() {
        return NONE;
    }

    /** These, each one missing taken from {@code inherited} (the enclosing step's). */
    OperationAttributes over(OperationAttributes inherited) {
        if (inherited == null || inherited == NONE) {
            return this;
        }
        return new OperationAttributes(tenant != null ? tenant : inherited.tenant, key != null ? key : inherited.key,
                operation != null ? operation : inherited.operation, target != null ? target : inherited.target);
    }

    void applyTo(Span span) {
        put(span, OPERATION_KEY, key);
        put(span, TENANT, tenant);
        put(span, OPERATION, operation);
        put(span, TARGET, target);
    }

    static void put(Span span, AttributeKey<String> name, String value) {
        if (value != null) {
            span.setAttribute(name, value);
        }
    }
}

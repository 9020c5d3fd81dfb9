package dev.toolgate.journal;

import java.io.Serializable;
import java.util.Objects;

/** The journal's primary key: an operation key is unique within its tenant. */
public class OperationId implements Serializable {

    private String tenant;
    private String key;

    public OperationId() {
    }

    public OperationId(String tenant, String key) {
        this.tenant = tenant;
        this.key = key;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OperationId other && tenant.equals(other.tenant) && key.equals(other.key);
    }

    @Override
    public int hashCode() {
        return Objects.hash(tenant, key);
    }
}

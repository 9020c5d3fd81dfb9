package dev.toolgate.lifecycle;

import dev.toolgate.operation.OperationView;

/** What renewing an attempt's lease before a request that can create the effect found. */
public sealed interface Renewal {

    /** Still this attempt's: the lease runs a full period from now. */
    record Held(OperationView operation) implements Renewal {
    }

    /** Another lease was given out (the lease lapsed and a look-up or a newer attempt took the row). */
    record Lost(String why) implements Renewal {
    }

    /** The approval was revoked or expired before this attempt sent anything: failed for good, nothing sent. */
    record ApprovalLapsed(OperationView operation) implements Renewal {
    }
}

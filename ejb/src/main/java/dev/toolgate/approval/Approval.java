package dev.toolgate.approval;

import dev.toolgate.journal.Operation;
import dev.toolgate.operation.OperationView;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;
import java.time.OffsetDateTime;

/** One grant: a person allowed exactly one intent (key + fingerprint) until {@code expires_at}; read before every new attempt. */
@Entity
@Table(name = "operation_approval")
public class Approval {

    @Id
    @Column(name = "approval_id")
    private String id;
    @Column(name = "tenant", updatable = false)
    private String tenant;
    @Column(name = "operation_key", updatable = false)
    private String operationKey;
    @Column(name = "request_hash", updatable = false)
    private String requestHash;
    @Column(name = "granted_by", updatable = false)
    private String grantedBy;
    @Column(name = "granted_at", updatable = false)
    private OffsetDateTime grantedAt;
    @Column(name = "expires_at", updatable = false)
    private OffsetDateTime expiresAt;
    @Column(name = "note", updatable = false)
    private String note;
    @Column(name = "revoked_by")
    private String revokedBy;
    @Column(name = "revoked_at")
    private OffsetDateTime revokedAt;
    @Column(name = "revoke_reason")
    private String revokeReason;

    protected Approval() {
    }

    public Approval(String id, OperationView operation, String grantedBy, Instant grantedAt, Instant expiresAt, String note) {
        this.id = id;
        this.tenant = operation.tenant();
        this.operationKey = operation.key();
        this.requestHash = operation.requestHash();
        this.grantedBy = grantedBy;
        this.grantedAt = Operation.at(grantedAt);
        this.expiresAt = Operation.at(expiresAt);
        this.note = note;
    }

    public static ApprovalStanding standing(OperationView operation, Approval approval, Instant now) {
        return ApprovalStanding.of(operation, approval == null ? null : approval.view(now), now);
    }

    /** The standing of the approval the operation currently names, read in the caller's transaction. */
    public static ApprovalStanding standing(EntityManager em, OperationView operation, Instant now) {
        Approval approval = operation.approvalId() == null ? null : em.find(Approval.class, operation.approvalId());
        return standing(operation, approval, now);
    }

    public void revoke(String by, String reason, Instant now) {
        revokedBy = by;
        revokedAt = Operation.at(now);
        revokeReason = reason;
    }

    public ApprovalView view(Instant now) {
        ApprovalStanding standing = revokedAt != null ? ApprovalStanding.REVOKED // of the grant itself, whatever operation
                : expiresAt.toInstant().isAfter(now) ? ApprovalStanding.ACTIVE : ApprovalStanding.EXPIRED;
        return new ApprovalView(id, tenant, operationKey, requestHash, grantedBy, grantedAt.toInstant(), expiresAt.toInstant(),
                note, revokedBy, revokedAt == null ? null : revokedAt.toInstant(), revokeReason, standing);
    }
}

package dev.toolgate.gateway.rest;

import dev.toolgate.gateway.ReplayWindow;
import dev.toolgate.gateway.records.OperationJson;
import dev.toolgate.search.OperationRecords;
import dev.toolgate.approval.ApprovalView;
import dev.toolgate.access.Role;
import dev.toolgate.approval.Approvals;
import dev.toolgate.access.Caller;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * {@code /api/v1/approvals}: approvers see what waits for them, grant an approval bound to a key and its
 * fingerprint, and revoke it. Agents can do none of this.
 */
@Path("v1/approvals")
@RequestScoped
public class ApprovalsResource {

    @Inject
    Approvals approvals;
    @Inject
    ReplayWindow replays;
    @Inject
    OperationRecords records;
    @Context
    UriInfo uri;

    /** Operations of the caller's tenant awaiting approval, oldest first. */
    @GET
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Allowed({Role.APPROVER, Role.AUDITOR})
    public Response awaiting(@Context SecurityContext security) {
        return answers().list("awaiting_approval", approvals.awaiting(CallerContext.of(security).tenant(), 200));
    }

    /** {@code {"operation_key", "request_hash"?, "expires_in_seconds"?, "note"?}} → 201 with the approval. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Allowed(Role.APPROVER)
    public Response grant(@Context SecurityContext security, byte[] body) {
        JsonObject spec = JsonBodies.object(body, "send {operation_key, request_hash?, expires_in_seconds?, note?}");
        Long seconds = JsonBodies.optionalWhole(spec, "expires_in_seconds", 60, Approvals.MAX_VALIDITY.toSeconds());
        String fingerprint = JsonBodies.optionalText(spec, "request_hash", 64);
        Caller approver = CallerContext.of(security);
        String key = JsonBodies.text(spec, "operation_key", 255);
        ApprovalView approval;
        try (Step decision = Spans.step("toolgate.approval", new OperationAttributes(approver.tenant(), key, null, null))) {
            approval = decided(decision.outcome("grant"), () -> approvals.grant(approver, key, fingerprint,
                    seconds == null ? Approvals.DEFAULT_VALIDITY : Duration.ofSeconds(seconds), JsonBodies.optionalText(spec, "note", 500)));
        }
        return Response.status(201).location(uri.getBaseUriBuilder().path("v1/approvals/{id}").build(approval.id()))
                .type(MediaType.APPLICATION_JSON).entity(OperationJson.approval(approval).toString()).build();
    }

    /**
     * {@code {"operation_key", "request_hash", "reason"?}} → 200 the operation, failed for good, nothing ever sent. The
     * fingerprint is required: a decline, like an approval, is about the intent the approver was shown.
     */
    @POST
    @Path("declines")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Allowed(Role.APPROVER)
    public Response decline(@Context SecurityContext security, byte[] body) {
        JsonObject spec = JsonBodies.object(body, "send {operation_key, request_hash, reason?}");
        String key = JsonBodies.text(spec, "operation_key", 255);
        String fingerprint = JsonBodies.text(spec, "request_hash", 64);
        String reason = JsonBodies.optionalText(spec, "reason", 500);
        Caller approver = CallerContext.of(security);
        try (Step decision = Spans.step("toolgate.approval", new OperationAttributes(approver.tenant(), key, null, null))) {
            decision.outcome("decline").set("toolgate.approval.decided_by", approver.principalId());
            try {
                approvals.decline(approver, key, fingerprint, reason);
            } catch (RuntimeException e) {
                decision.threw(e);
                throw e;
            }
        }
        return answers().record(records.find(approver.tenant(), key).orElseThrow());
    }

    @GET
    @Path("{id}")
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Allowed({Role.APPROVER, Role.OPERATOR, Role.AUDITOR, Role.AGENT})
    public Response find(@PathParam("id") String id, @Context SecurityContext security) {
        return Response.ok(OperationJson.approval(approvals.find(CallerContext.of(security), id)).toString(), MediaType.APPLICATION_JSON).build();
    }

    /** Revokes; an optional {@code ?reason=} is kept in the audit trail (a DELETE carries no body). */
    @DELETE
    @Path("{id}")
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Allowed(Role.APPROVER)
    public Response revoke(@PathParam("id") String id, @QueryParam("reason") String reasonParam, @Context SecurityContext security) {
        String reason = reasonParam == null || reasonParam.isBlank() ? null
                : JsonBodies.optionalText(dev.toolgate.canonical.Jsons.JSON.createObjectBuilder().add("reason", reasonParam).build(), "reason", 500);
        Caller approver = CallerContext.of(security);
        ApprovalView approval;
        try (Step decision = Spans.step("toolgate.approval", new OperationAttributes(approver.tenant(), null, null, null))) {
            approval = decided(decision.outcome("revoke"), () -> approvals.revoke(approver, id, reason));
        }
        return Response.ok(OperationJson.approval(approval).toString(), MediaType.APPLICATION_JSON).build();
    }

    /** A person's decision on an approval, its span naming the operation, the approval and who decided — or what refused it. */
    private static ApprovalView decided(Step decision, Supplier<ApprovalView> deciding) {
        try {
            ApprovalView approval = deciding.get();
            decision.about(new OperationAttributes(null, approval.operationKey(), null, null))
                    .set("toolgate.approval_id", approval.id()).set("toolgate.approval.standing", approval.standing().dbName())
                    .set("toolgate.approval.decided_by", approval.revokedBy() != null ? approval.revokedBy() : approval.grantedBy());
            return approval;
        } catch (RuntimeException e) {
            decision.threw(e);
            throw e;
        }
    }

    private Answers answers() {
        return new Answers(uri.getBaseUri(), replays.length());
    }
}

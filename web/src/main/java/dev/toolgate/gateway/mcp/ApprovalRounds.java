package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import dev.toolgate.access.Caller;
import dev.toolgate.gateway.GatewayAnswer;
import dev.toolgate.gateway.edge.IdempotencyKeyHeader;
import dev.toolgate.operation.OperationView;
import dev.toolgate.search.OperationRecords;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

/**
 * An approval in the protocol (docs/mcp.md, Approvals in the protocol) for a 2026-07-28 client that declares URL-mode
 * elicitation and not tasks: an {@code InputRequiredResult} opening the console's approval page for this operation,
 * with a {@code requestState} ({@link RequestStates}) that the client's retry of the same call echoes.
 */
@ApplicationScoped
public class ApprovalRounds {

    /** Long enough for a person to open the page and decide; a later retry without the state is asked again. */
    static final Duration STATE_TTL = Duration.ofMinutes(15);

    @Inject
    OperationRecords records;

    /**
     * Base64 of the HMAC key for {@code requestState}, the same on every instance behind one load balancer. Absent: a
     * random key per process, so a retry reaching another instance (or after a restart) is refused and calls again.
     */
    @Inject
    @ConfigProperty(name = "toolgate.mcp.request-state-secret")
    Optional<String> configuredSecret;

    /** As long as the HMAC-SHA256 output: a shorter key is the weaker part of the signature. */
    static final int MIN_SECRET_BYTES = 32;

    private byte[] secret;

    JsonObject inputRequired(Caller caller, GatewayAnswer.AwaitingApproval answer, String base) {
        OperationView op = answer.operation();
        String state = RequestStates.issue(secret(), new RequestStates.Claims(caller.principalId(), op.key(), op.requestHash(),
                op.attemptCount(), Instant.now().plus(STATE_TTL)));
        return JSON.createObjectBuilder().add("resultType", "input_required")
                .add("inputRequests", TaskJson.approvalRequest(base, op.key(), op.requestHash()))
                .add("requestState", state).build();
    }

    /** Why a retry's {@code requestState} is refused, or empty when it carries none or a valid one. */
    Optional<String> refusal(Caller caller, JsonObject params) {
        if (!params.containsKey("requestState")) {
            return Optional.empty();
        }
        if (!(params.get("requestState") instanceof JsonString state)) {
            return Optional.of("requestState must be the string this server issued");
        }
        Optional<RequestStates.Claims> claims = RequestStates.read(secret(), state.getString());
        if (claims.isEmpty()) {
            return Optional.of("requestState failed verification; call again without it");
        }
        String key = params.get("arguments") instanceof JsonObject args && args.get(ToolSchemas.KEY) instanceof JsonString k ? k.getString() : "";
        if (!IdempotencyKeyHeader.isWellFormed(key)) { // the key's own rule before it is looked up: a NUL never reaches SQL
            return Optional.of("requestState names a well-formed arguments.idempotency_key, and this one is not");
        }
        return records.find(caller.tenant(), key).map(OperationRecords.OperationRecord::operation)
                .map(op -> RequestStates.refusal(claims.get(), caller.principalId(), key, op.requestHash(), op.attemptCount(), Instant.now()))
                .orElse(Optional.of("requestState was issued for another operation"));
    }

    /**
     * Keyed at start: a malformed or short secret stops the deployment, naming the setting; and two first calls at
     * once cannot each draw a random key (one's states would then fail verification).
     */
    void keyedAtStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
        secret();
    }

    private synchronized byte[] secret() {
        if (secret == null) {
            secret = secretOf(configuredSecret);
        }
        return secret;
    }

    /** The configured key (Base64 of at least 32 bytes), or 32 random bytes when none is configured. */
    static byte[] secretOf(Optional<String> configured) {
        if (configured.isEmpty() || configured.get().isBlank()) {
            byte[] random = new byte[MIN_SECRET_BYTES];
            new SecureRandom().nextBytes(random);
            return random;
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(configured.get().strip());
        } catch (IllegalArgumentException notBase64) { // the value itself is a secret: never in the message
            throw new IllegalStateException("toolgate.mcp.request-state-secret is not Base64 (e.g. openssl rand -base64 32)");
        }
        if (key.length < MIN_SECRET_BYTES) {
            throw new IllegalStateException("toolgate.mcp.request-state-secret holds " + key.length + " bytes; an HMAC-SHA256 key needs "
                    + MIN_SECRET_BYTES + " (e.g. openssl rand -base64 32)");
        }
        return key;
    }
}

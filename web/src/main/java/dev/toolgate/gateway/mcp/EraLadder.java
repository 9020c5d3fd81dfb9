package dev.toolgate.gateway.mcp;

import static dev.toolgate.canonical.Jsons.JSON;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Whether a request is served, and in which era, before any method runs: the revision ({@link ProtocolVersions}), then
 * the mirrored headers. Each refusal is a 400 with a JSON-RPC error a dual-era client recognises as modern (transports:
 * Backward Compatibility), so it corrects its request rather than falling back to {@code initialize}.
 */
final class EraLadder {

    static final String VERSION_HEADER = "MCP-Protocol-Version";

    private EraLadder() {
    }

    sealed interface Admission {
    }

    /** Served in {@code era} ({@link ProtocolVersions.Legacy} or {@link ProtocolVersions.Modern}). */
    record Admitted(ProtocolVersions.Era era) implements Admission {
    }

    /** Refused with this JSON-RPC error, HTTP 400. */
    record Refused(JsonObject error) implements Admission {
    }

    static Admission admit(UnaryOperator<String> header, JsonRpc.Call call) {
        ProtocolVersions.Era era = ProtocolVersions.of(header.apply(VERSION_HEADER), call.params());
        if (era instanceof ProtocolVersions.Unsupported unsupported) {
            return new Refused(unsupported(call, unsupported.requested()));
        }
        if (era instanceof ProtocolVersions.HeaderMismatch mismatch) {
            return new Refused(JsonRpc.error(call.id(), JsonRpc.HEADER_MISMATCH, "Header mismatch: " + mismatch.detail()));
        }
        if (era instanceof ProtocolVersions.MissingEnvelope missing) {
            return new Refused(JsonRpc.error(call.id(), JsonRpc.INVALID_PARAMS, missing.detail()));
        }
        Optional<String> mismatch = MirroredHeaders.mismatch(era instanceof ProtocolVersions.Modern, header, call);
        return mismatch.<Admission>map(m -> new Refused(JsonRpc.error(call.id(), JsonRpc.HEADER_MISMATCH, "Header mismatch: " + m)))
                .orElseGet(() -> new Admitted(era));
    }

    /** -32022 with {@code supported} and {@code requested}: the client picks a revision from the list and retries. */
    static JsonObject unsupported(JsonRpc.Call call, String requested) {
        return JsonRpc.error(call == null ? JsonValue.NULL : call.id(), JsonRpc.UNSUPPORTED_PROTOCOL_VERSION,
                "Unsupported protocol version", JSON.createObjectBuilder()
                        .add("supported", JSON.createArrayBuilder(ProtocolVersions.SUPPORTED)).add("requested", ProtocolVersions.requestedShown(requested)).build());
    }
}

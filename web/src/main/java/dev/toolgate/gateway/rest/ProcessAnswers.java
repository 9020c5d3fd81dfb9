package dev.toolgate.gateway.rest;

import dev.toolgate.gateway.edge.ProblemType;
import dev.toolgate.gateway.records.ProcessJson;
import dev.toolgate.process.ProcessAnswer;
import dev.toolgate.process.ProcessRecord;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.net.URI;
import java.time.Duration;

/**
 * The one place where process answers become HTTP (docs/http-api.md): settled → 201 (registered by this call) or 200
 * ({@code Idempotent-Replayed: true} if finished before); waiting on a step, a person or another advancer → 202 with
 * {@code Retry-After}; the key used for another process or payload → 422. The body: the process as it stands.
 */
final class ProcessAnswers {

    private final Links links;
    private final Duration retention;

    ProcessAnswers(URI base, Duration retention) {
        this.links = new Links(base);
        this.retention = retention;
    }

    Response toResponse(ProcessAnswer answer) {
        if (answer instanceof ProcessAnswer.Progressed progressed) {
            ProcessRecord record = progressed.record();
            if (progressed.retryAfter() != null) {
                return body(202, record).header("Retry-After", Answers.seconds(progressed.retryAfter())).location(self(record.process().key())).build();
            }
            Response.ResponseBuilder done = body(progressed.created() ? 201 : 200, record);
            if (progressed.created()) {
                done.location(self(record.process().key()));
            }
            return progressed.replayed() ? done.header(Answers.REPLAYED, "true").build() : done.build();
        }
        if (answer instanceof ProcessAnswer.Busy busy) {
            return body(202, busy.record()).header("Retry-After", Answers.seconds(busy.retryAfter())).location(self(busy.record().process().key()))
                    .build();
        }
        if (answer instanceof ProcessAnswer.KeyReused reused) {
            return Problem.of(ProblemType.IDEMPOTENCY_KEY_REUSED,
                            "this key names another process or payload; nothing was executed. A new intent needs a new key")
                    .with("process_key", reused.process().key()).response().build();
        }
        if (answer instanceof ProcessAnswer.FingerprintUncheckable newer) {
            return Problem.of(ProblemType.FINGERPRINT_SCHEME_UNKNOWN, "an instance of the release that captured this key compares"
                            + " the payload; nothing was executed. Retry with the same key, never a new one")
                    .with("process_key", newer.process().key()).response().header("Retry-After", "5").build();
        }
        throw new IllegalArgumentException("an answer this mapping does not know: " + answer);
    }

    Response record(ProcessRecord record) {
        return body(200, record).build();
    }

    private Response.ResponseBuilder body(int status, ProcessRecord record) {
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(ProcessJson.of(record,
                links::operationPath, links.processPath(record.process().key()), retention).toString());
    }

    URI self(String key) {
        return links.process(key);
    }
}

package dev.toolgate.gateway;

import dev.toolgate.access.Caller;
import dev.toolgate.admission.WorkPermits;
import dev.toolgate.canonical.AgentCommand;
import dev.toolgate.canonical.CanonicalRequest;
import dev.toolgate.canonical.Canonicalizer;
import dev.toolgate.lifecycle.decisions.CaptureDecision;
import dev.toolgate.lifecycle.OperationLoop;
import dev.toolgate.lifecycle.Phase;
import dev.toolgate.notification.NoticeSettings;
import dev.toolgate.operation.OperationRefused;
import dev.toolgate.operation.OperationView;
import dev.toolgate.targets.registry.TargetRegistry;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Step;
import dev.toolgate.trace.Trace;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.ConfigProvider;

import java.time.Instant;
import java.util.OptionalInt;
import java.util.logging.Logger;

/**
 * An agent's command as a tool execution: the {@link OperationLoop} from its capture, and the row it leaves as the
 * answer. It touches no database itself, so it needs no interceptor: transactions are the loop's concern.
 */
@ApplicationScoped
public class CommandGateway {

    private static final Logger LOG = Logger.getLogger(CommandGateway.class.getName());
    private static final String WORK_CONCURRENCY = "toolgate.work-concurrency";

    /** {@link WorkPermits}' bound: {@code toolgate.work-concurrency}, four per core unless set, 0 for none. */
    @PostConstruct
    void boundWork() {
        String setting = ConfigProvider.getConfig().getOptionalValue(WORK_CONCURRENCY, String.class).orElse(null);
        OptionalInt named = WorkPermits.named(setting);
        if (setting != null && named.isEmpty()) { // no command should fail for it: said once, the default used
            LOG.severe(WORK_CONCURRENCY + " is not a whole number of 0 or more; four per core are used instead");
        }
        WorkPermits.bound(named.orElseGet(WorkPermits::defaultBound));
    }

    @Inject
    NoticeSettings notices;
    @Inject
    OperationLoop loop;
    @Inject
    TargetRegistry targets;

    /** Traced as one tool execution whose child spans are the capture, each attempt and its record, each look-up. */
    public GatewayAnswer submit(ToolCall call, Caller caller, String key, AgentCommand command) {
        return WorkPermits.within(() -> submitted(call, caller, key, command));
    }

    private GatewayAnswer submitted(ToolCall call, Caller caller, String key, AgentCommand command) {
        CanonicalRequest request = Canonicalizer.canonicalize(command);
        targets.requireConfigured(request.target());
        Trace.operation(key);
        OperationAttributes operation = new OperationAttributes(caller.tenant(), key, request.operation(), request.target());
        try (Step tool = ToolExecution.start(call, operation)) {
            try {
                return ToolExecution.answered(tool, answer(loop.submit(caller, key, request)));
            } catch (RuntimeException e) { // a refusal, the journal away, a bug: the answer's mapping says which
                tool.threw(e);
                throw e;
            }
        }
    }

    /**
     * A replacement agent continues the recorded operation, not re-planning it: the journal's payload, approval and
     * attempt count. It accepts no parameters, so nothing the new agent's model says can change what was approved.
     * Traced in the new agent's trace, under the operation's key like every earlier span.
     */
    public GatewayAnswer resume(ToolCall call, Caller caller, String key) {
        return WorkPermits.within(() -> resumed(call, caller, key));
    }

    private GatewayAnswer resumed(ToolCall call, Caller caller, String key) {
        try (Step tool = ToolExecution.start(call, new OperationAttributes(caller.tenant(), key, null, null))) {
            try {
                Phase captured = loop.captureRecorded(caller, key);
                if (captured == null) {
                    throw new OperationRefused(OperationRefused.Reason.OPERATION_NOT_FOUND, "no operation with this key");
                }
                OperationView operation = captured.operation();
                tool.about(new OperationAttributes(null, null, operation.operation(), operation.target()));
                // no caller's payload: the journal's is sent, and withheld fields, never stored, only by the original request
                return ToolExecution.answered(tool, answer(loop.drive(captured, caller.principalId(), null)));
            } catch (RuntimeException e) {
                tool.threw(e);
                throw e;
            }
        }
    }

    /** What the agent is told: a refusal of its payload as the capture decided it, else the row as the loop left it. */
    private GatewayAnswer answer(Phase phase) {
        OperationView operation = phase.operation();
        if (phase.decision() instanceof CaptureDecision.Mismatch) {
            return new GatewayAnswer.KeyReused(operation);
        }
        if (phase.decision() instanceof CaptureDecision.FingerprintUncheckable) {
            return new GatewayAnswer.FingerprintUncheckable(operation);
        }
        // not this call's doing (a finished row, found by a look-up, another caller's outcome): a replay of an earlier effect
        return AgentAnswers.of(operation, !phase.byThisCall(), Instant.now(), notices.noticeWait(operation.target(), operation.operation()));
    }
}

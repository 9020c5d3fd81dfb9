package dev.toolgate.checker;

import dev.toolgate.checker.History.Answer;
import dev.toolgate.checker.History.Away;
import dev.toolgate.checker.History.Operation;
import dev.toolgate.checker.Verdict.Violation;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Judges a fault run by what the agents were told, what the journal holds and what the targets received — never by
 * the gateway's view of itself. One method per {@link Rule}; each adds a violation per key it finds broken.
 */
public final class Checker {

    /** Faults that refuse a request before the target works on it: they may leave an agent told "not executed" (5xx). */
    private static final Set<String> REFUSING_FAULTS = Set.of("status", "reset_before_commit");
    /** Answers that mean "wait": the outcome is not settled yet, so they say nothing about the journal. */
    private static final Set<Integer> WAIT = Set.of(202, 409, 429);

    private final History history;
    private final List<Violation> violations = new ArrayList<>();

    private Checker(History history) {
        this.history = history;
    }

    public static Verdict judge(History history) {
        Checker checker = new Checker(history);
        for (Operation op : history.operations()) {
            checker.noServerError(op);
            checker.acknowledgedExactlyOnce(op);
            checker.unreadableSuccess(op);
            checker.oneStoredResult(op);
            checker.unacknowledgedSettledAtMostOnce(op);
            checker.refusalMatchesJournal(op);
            checker.oneCreateSent(op);
            checker.escalationWithinPlan(op);
            checker.armedFaultFired(op);
        }
        Operation others = new Operation("(calls on no single operation)", null, history.others(), null, List.of(), List.of(), List.of(), false);
        checker.noServerError(others);
        int answers = history.operations().stream().mapToInt(op -> op.answers().size()).sum() + history.others().size();
        return new Verdict(history.operations().size(), answers, checker.violations);
    }

    private void noServerError(Operation op) {
        for (Answer answer : op.answers()) {
            if (answer.httpStatus() == Answer.NO_ANSWER && !away(Away.GATEWAY, answer)) {
                broken(Rule.NO_SERVER_ERROR, op, "no answer at " + answer.at() + " while every gateway was up");
            } else if (serversOwn(answer) && !away(Away.GATEWAY, answer)) {
                broken(Rule.NO_SERVER_ERROR, op, answer.httpStatus() + " from the server, not the application, while every gateway was up");
            } else if (serversOwn(answer)) {
                continue; // the server answered for an application that was not there yet, or no longer
            } else if (answer.httpStatus() >= 500 && !excused(op, answer)) {
                broken(Rule.NO_SERVER_ERROR, op, answer.httpStatus() + " " + answer.problem() + (answer.retryAfter() ? "" : " without Retry-After")
                        + " at " + answer.at() + (answer.excerpt() == null ? "" : ": " + answer.excerpt()));
            }
        }
    }

    /** A 503 with Retry-After while the journal is away, or a "not executed" answer where a fault refused the request. */
    private boolean excused(Operation op, Answer answer) {
        if (answer.httpStatus() == 503 && answer.retryAfter() && "journal-unavailable".equals(answer.problem())) {
            return away(Away.JOURNAL, answer);
        }
        if (answer.httpStatus() == 503 && answer.retryAfter() && "gateway-stopping".equals(answer.problem())) {
            return away(Away.GATEWAY, answer);
        }
        // "provably not executed" stands only where a fault that refuses before the work fired, and each answer has its status
        boolean refused = op.armed().stream().anyMatch(a -> REFUSING_FAULTS.contains(a.fault()) && a.fired() > 0);
        boolean unavailable = answer.httpStatus() == 503 && answer.retryAfter() && "target-unavailable".equals(answer.problem());
        boolean exhausted = answer.httpStatus() == 502 && "retries-exhausted".equals(answer.problem());
        return refused && (unavailable || exhausted);
    }

    /**
     * An answer with no problem document: the server's own, for an application it has not started or has stopped —
     * a 404 for a context not there, a 500 or 503 for one starting. Only a gateway's start or stop excuses one.
     */
    private static boolean serversOwn(Answer answer) {
        return answer.problem() == null && (answer.httpStatus() == 404 || answer.httpStatus() == 500 || answer.httpStatus() == 503);
    }

    private boolean away(Away what, Answer answer) {
        return history.outages().stream().anyMatch(o -> o.what() == what && o.covers(answer.at()));
    }

    private void acknowledgedExactlyOnce(Operation op) {
        List<Answer> acks = op.answers().stream().filter(Answer::acknowledged).toList();
        if (acks.isEmpty()) {
            return;
        }
        String told = acks.get(0).objectId();
        if (told == null) {
            broken(Rule.ACKNOWLEDGED_EXACTLY_ONCE, op, "told succeeded without the object it made");
            return;
        }
        if (op.row() == null || !op.row().status().equals("succeeded")) {
            broken(Rule.ACKNOWLEDGED_EXACTLY_ONCE, op, "told succeeded (" + told + ") but the journal holds "
                    + (op.row() == null ? "nothing" : op.row().status()));
        } else if (!Objects.equals(op.row().objectId(), told)) {
            broken(Rule.ACKNOWLEDGED_EXACTLY_ONCE, op, "told " + told + " but the journal names " + op.row().objectId());
        }
        if (!op.objects().equals(List.of(told))) {
            broken(Rule.ACKNOWLEDGED_EXACTLY_ONCE, op, "told " + told + " but " + op.system() + " holds " + op.objects());
        }
    }

    /** A 2xx whose body names no operation status: an agent cannot tell what happened, and neither can the checker. */
    private void unreadableSuccess(Operation op) {
        op.answers().stream().filter(a -> (a.httpStatus() == 200 || a.httpStatus() == 201) && a.opStatus() == null).findFirst()
                .ifPresent(a -> broken(Rule.ACKNOWLEDGED_EXACTLY_ONCE, op, a.httpStatus() + " with no operation status in its body"));
    }

    private void oneStoredResult(Operation op) {
        Set<String> named = op.answers().stream().filter(Answer::acknowledged).map(Answer::objectId)
                .map(String::valueOf).collect(Collectors.toCollection(java.util.TreeSet::new));
        if (named.size() > 1) {
            broken(Rule.ONE_STORED_RESULT, op, "answers named " + named);
        }
    }

    private void unacknowledgedSettledAtMostOnce(Operation op) {
        if (op.answers().stream().anyMatch(Answer::acknowledged)) {
            return;
        }
        if (!op.sent()) {
            if (op.row() != null || !op.creates().isEmpty() || !op.objects().isEmpty()) {
                broken(Rule.UNACKNOWLEDGED_SETTLED_AT_MOST_ONCE, op, "never to be sent, yet the journal holds "
                        + (op.row() == null ? "nothing" : op.row().status()) + " and " + op.system() + " received " + op.creates().size());
            }
            return;
        }
        if (op.objects().size() > 1) {
            broken(Rule.UNACKNOWLEDGED_SETTLED_AT_MOST_ONCE, op, op.system() + " holds " + op.objects());
        }
        if (op.row() == null) {
            if (!op.objects().isEmpty() || op.creates().stream().anyMatch(History.Create::reachedWork)) {
                broken(Rule.UNACKNOWLEDGED_SETTLED_AT_MOST_ONCE, op, "never journaled, yet " + op.system() + " received it");
            }
        } else if (!op.row().settled()) {
            broken(Rule.UNACKNOWLEDGED_SETTLED_AT_MOST_ONCE, op, "left " + op.row().status());
        } else if (op.row().status().equals("succeeded") && !op.objects().equals(List.of(op.row().objectId()))) {
            broken(Rule.UNACKNOWLEDGED_SETTLED_AT_MOST_ONCE, op, "the journal names " + op.row().objectId() + ", "
                    + op.system() + " holds " + op.objects());
        } else if (!op.row().status().equals("succeeded") && !op.row().escalated() && !op.objects().isEmpty()) {
            // failed for good, or waiting on a person or the caller: nothing may have been made
            broken(Rule.UNACKNOWLEDGED_SETTLED_AT_MOST_ONCE, op, op.row().status() + ", yet " + op.system() + " holds " + op.objects());
        }
    }

    private void refusalMatchesJournal(Operation op) {
        for (Answer answer : op.answers()) {
            boolean refusal = (answer.httpStatus() >= 400 && answer.httpStatus() < 500 || "retries-exhausted".equals(answer.problem()))
                    && !WAIT.contains(answer.httpStatus())
                    && !"idempotency-key-reused".equals(answer.problem()) // refuses the call, not the operation it names
                    && !serversOwn(answer); // the server's, judged as such above
            if (refusal && (op.row() == null || !op.row().status().equals("failed_final") || !op.objects().isEmpty())) {
                broken(Rule.REFUSAL_MATCHES_JOURNAL, op, "refused " + answer.httpStatus() + " " + answer.problem() + " but the journal holds "
                        + (op.row() == null ? "nothing" : op.row().status()) + " and " + op.system() + " " + op.objects());
            }
        }
    }

    private void oneCreateSent(Operation op) {
        long reached = op.creates().stream().filter(c -> c.reachedWork() && !c.repeatable()).count();
        if (reached > 1) {
            broken(Rule.ONE_CREATE_SENT, op, reached + " creates reached " + op.system() + "'s work: " + op.creates());
        }
    }

    private void escalationWithinPlan(Operation op) {
        if (op.row() != null && op.row().escalated() && !op.mayEscalate()) {
            broken(Rule.ESCALATION_WITHIN_PLAN, op, "escalated, with faults " + op.armed() + " that cannot cause it");
        }
    }

    private void armedFaultFired(Operation op) {
        if (!op.sent()) {
            return; // nothing was to reach the target: judged above by what reached it
        }
        for (History.Armed armed : op.armed()) {
            if (armed.fired() < armed.times()) {
                broken(Rule.ARMED_FAULT_FIRED, op, armed.fault() + " fired " + armed.fired() + " of " + armed.times() + " times; "
                        + op.creates().size() + " create(s) reached " + op.system() + ", the row "
                        + (op.row() == null ? "absent" : op.row().status()) + ", the answers " + statuses(op));
            }
        }
    }

    /** An operation's answers, briefly: status and problem, in order. */
    private static String statuses(Operation op) {
        return op.answers().stream().map(a -> a.httpStatus() + (a.problem() == null ? "" : " " + a.problem()))
                .collect(java.util.stream.Collectors.joining(", ", "[", "]"));
    }

    private void broken(Rule rule, Operation op, String detail) {
        violations.add(new Violation(rule, op.key(), detail));
    }
}

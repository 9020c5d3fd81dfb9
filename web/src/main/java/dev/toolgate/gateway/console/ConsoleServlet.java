package dev.toolgate.gateway.console;

import dev.toolgate.search.OperationRecords;
import dev.toolgate.approval.ApprovalView;
import dev.toolgate.approval.Approvals;
import dev.toolgate.escalation.Escalations;
import dev.toolgate.search.Cursor;
import dev.toolgate.journal.OperationRefused;
import dev.toolgate.search.OperationSearch;
import dev.toolgate.journal.OperationView;
import dev.toolgate.search.Standing;
import dev.toolgate.reconcile.job.Reconciliations;
import dev.toolgate.targets.PaymentCoverage;
import dev.toolgate.targets.TargetRegistry;
import dev.toolgate.trace.OperationAttributes;
import dev.toolgate.trace.Spans;
import dev.toolgate.trace.Step;
import dev.toolgate.trace.Trace;
import jakarta.enterprise.inject.Instance;
import dev.toolgate.gateway.edge.InputRefused;
import dev.toolgate.gateway.edge.Inputs;
import jakarta.inject.Inject;
import jakarta.security.enterprise.identitystore.openid.OpenIdContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Every console page and action under {@code /console/*}, after {@link ConsoleGuard} let the request through:
 * which page a path is, whether the person's roles allow it ({@link ConsoleAccess}), the one service call it
 * makes, and what the person sees next. A state change answers with a redirect (post/redirect/get), its
 * outcome in a one-time notice; a refused one with a page saying why, and nothing changed.
 */
public class ConsoleServlet extends HttpServlet {

    private static final int PAGE = 50;
    private static final String FLASH = "toolgate.console.flash";

    @Inject
    ConsoleSettings settings;
    @Inject
    OperationRecords records;
    @Inject
    OperationSearch search;
    @Inject
    Approvals approvals;
    @Inject
    Escalations escalations;
    @Inject
    Reconciliations reconciliations;
    @Inject
    TargetRegistry targets;
    @Inject
    Instance<OpenIdContext> openId;

    /** A request the console refuses, with the status and words it gets. */
    private static final class Refusal extends RuntimeException {
        final int status;

        Refusal(int status, String why) {
            super(why, null, false, false);
            this.status = status;
        }
    }

    /** Each request in a trace of its own, as an API call is in the call's: the decisions it journals name it. */
    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        try (Trace trace = Trace.start(null)) { // with tracing on, the trace of the decision's span (Trace adopts it)
            super.service(request, response);
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = path(request);
        if (path.isEmpty()) {
            response.sendRedirect(request.getContextPath() + "/console/");
            return;
        }
        if (path.equals("/Callback")) { // the identity provider's way back, already handled: on to the console
            response.sendRedirect(request.getContextPath() + "/console/");
            return;
        }
        ConsoleUser user = user(request);
        String csrf = (String) request.getSession().getAttribute(ConsoleGuard.CSRF);
        Instant now = Instant.now();
        try {
            switch (path) {
                case "/" -> show(response, "Console", user, csrf, ConsoleAccess.HOME,
                        OperationPages.home(require(user, ConsoleAccess.HOME), search.unfinished(user.tenant())), 0);
                case "/approvals" -> {
                    require(user, ConsoleAccess.APPROVALS);
                    boolean approved = "approved".equals(request.getParameter("show"));
                    Standing shown = approved ? Standing.AWAITING_CALLER : Standing.AWAITING_APPROVAL;
                    OperationSearch.Page page = search.oldestFirst(user.tenant(), OperationSearch.Query.standing(shown), cursor(request), PAGE);
                    Map<String, ApprovalView> granted = new HashMap<>();
                    for (OperationView op : page.items()) {
                        if (op.approvalId() != null) { // one primary-key read each, for at most a page
                            granted.put(op.key(), approvals.find(user.caller(), op.approvalId()));
                        }
                    }
                    show(response, "Approvals", user, csrf, ConsoleAccess.APPROVALS,
                            ApprovalPages.queue(page, granted, approved, search.unfinished(user.tenant()), now, flash(request)), 0);
                }
                case "/approval" -> {
                    require(user, ConsoleAccess.APPROVALS);
                    OperationRecords.OperationRecord record = record(user, request.getParameter("key"));
                    OperationView op = record.operation();
                    if (op.status() != dev.toolgate.journal.OperationStatus.PENDING_APPROVAL) { // decided meanwhile: its record says how
                        response.sendRedirect(request.getContextPath() + "/console/operation?key=" + Html.query(op.key()));
                        return;
                    }
                    show(response, "Approve " + op.operation() + "?", user, csrf, ConsoleAccess.APPROVALS,
                            ApprovalPages.decision(op, record.approval(), coverage(op), user, csrf, now, flash(request)), 0);
                }
                case "/escalations" -> {
                    require(user, ConsoleAccess.ESCALATIONS);
                    show(response, "Escalations", user, csrf, ConsoleAccess.ESCALATIONS, OperationPages.escalations(
                            search.oldestFirst(user.tenant(), OperationSearch.Query.standing(Standing.ESCALATED), cursor(request), PAGE), now), 0);
                }
                case "/unfinished" -> {
                    require(user, ConsoleAccess.UNFINISHED);
                    Map<Standing, Long> counts = search.unfinished(user.tenant());
                    Standing shown = request.getParameter("standing") == null
                            ? counts.entrySet().stream().filter(e -> e.getValue() > 0).map(Map.Entry::getKey).findFirst().orElse(null)
                            : standing(request.getParameter("standing"), true);
                    OperationSearch.Page page = shown == null ? null
                            : search.oldestFirst(user.tenant(), OperationSearch.Query.standing(shown), cursor(request), PAGE);
                    show(response, "Unfinished work", user, csrf, ConsoleAccess.UNFINISHED, OperationPages.unfinished(counts, shown, page,
                            page == null ? Set.of() : search.approvedNow(page.items()), now), 0);
                }
                case "/search" -> {
                    require(user, ConsoleAccess.SEARCH);
                    searchPage(request, response, user, csrf, now);
                }
                case "/operation" -> {
                    require(user, ConsoleAccess.SEARCH);
                    OperationRecords.OperationRecord record = record(user, request.getParameter("key"));
                    show(response, "Operation " + record.operation().key(), user, csrf, ConsoleAccess.SEARCH,
                            OperationPages.record(record, user, csrf, settings, now, flash(request)), 0);
                }
                case "/reconcile" -> {
                    require(user, ConsoleAccess.RECONCILE);
                    long run = whole(request.getParameter("run"));
                    Reconciliations.Run found = run < 0 ? null : reconciliations.find(run, user.tenant()).orElse(null);
                    show(response, "Reconcile", user, csrf, ConsoleAccess.RECONCILE, OperationPages.reconcile(found, run, user, csrf),
                            OperationPages.running(found) ? 2 : 0);
                }
                default -> throw new Refusal(404, "There is no console page at " + request.getRequestURI() + ".");
            }
        } catch (Refusal refusal) {
            refuse(response, refusal, csrf);
        } catch (InputRefused refused) {
            refuse(response, new Refusal(refused.status(), "Refused, nothing changed: the " + refused.getMessage() + "."), csrf);
        } catch (OperationRefused refused) {
            refuse(response, refusal(refused), csrf);
        }
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
        String path = path(request);
        if (path.equals("/sign-out")) {
            signOut(request, response);
            return;
        }
        ConsoleUser user = user(request);
        String csrf = (String) request.getSession().getAttribute(ConsoleGuard.CSRF);
        try {
            switch (path) {
                case "/approvals/approve" -> {
                    require(user, ConsoleAccess.APPROVE);
                    String key = key(request);
                    Duration validity = Optional.ofNullable(ApprovalPages.VALIDITY.get(text(request, "validity", 32, true)))
                            .orElseThrow(() -> new Refusal(400, "Choose a validity from the list."));
                    String fingerprint = text(request, "fingerprint", 64, true);
                    String note = text(request, "note", 500, false);
                    ApprovalView approval = decided(user, key, "grant",
                            () -> approvals.grant(user.caller(), key, fingerprint, validity, note));
                    flash(request, "Approved " + key + " until " + approval.expiresAt() + ". The agent's next call sends it.");
                    redirect(request, response, "/console/approvals");
                }
                case "/approvals/decline" -> {
                    require(user, ConsoleAccess.DECLINE);
                    String key = key(request);
                    String fingerprint = text(request, "fingerprint", 64, true);
                    String reason = text(request, "reason", 500, false);
                    decided(user, key, "decline", () -> approvals.decline(user.caller(), key, fingerprint, reason));
                    flash(request, "Declined " + key + ": nothing will be sent.");
                    redirect(request, response, "/console/approvals");
                }
                case "/approvals/revoke" -> {
                    require(user, ConsoleAccess.REVOKE);
                    String key = key(request);
                    String id = text(request, "approval", 64, true);
                    String reason = text(request, "reason", 500, false);
                    decided(user, key, "revoke", () -> approvals.revoke(user.caller(), id, reason));
                    flash(request, "Revoked the approval of " + key + ".");
                    redirect(request, response, "/console/operation?key=" + Html.query(key));
                }
                case "/operation/resolve" -> {
                    require(user, ConsoleAccess.RESOLVE);
                    resolve(request, response, user);
                }
                case "/reconcile" -> {
                    require(user, ConsoleAccess.START_RECONCILE);
                    long run = reconciliations.start();
                    redirect(request, response, "/console/reconcile?run=" + run);
                }
                default -> throw new Refusal(404, "There is nothing to send to " + request.getRequestURI() + ".");
            }
        } catch (Refusal refusal) {
            refuse(response, refusal, csrf);
        } catch (InputRefused refused) {
            refuse(response, new Refusal(refused.status(), "Refused, nothing changed: the " + refused.getMessage() + "."), csrf);
        } catch (OperationRefused refused) {
            refuse(response, refusal(refused), csrf);
        }
    }

    private void resolve(HttpServletRequest request, HttpServletResponse response, ConsoleUser user) throws IOException {
        String key = key(request);
        String outcome = text(request, "outcome", 32, true);
        String evidence = text(request, "evidence", 2000, true);
        try (Step resolution = Spans.step("toolgate.resolve", new OperationAttributes(user.tenant(), key, null, null))) {
            resolution.set("toolgate.resolved_by", user.name());
            try {
                switch (outcome) {
                    case "succeeded" -> escalations.resolveSucceeded(user.caller(), key, text(request, "object_id", 255, true), evidence);
                    case "failed_final" -> escalations.resolveFailed(user.caller(), key, text(request, "reason", 500, true), evidence);
                    default -> throw new Refusal(400, "Say whether it succeeded or failed.");
                }
                resolution.outcome(outcome);
            } catch (RuntimeException e) {
                resolution.threw(e);
                throw e;
            }
        }
        flash(request, "Resolved " + key + " as " + outcome.replace('_', ' ') + " under your name.");
        redirect(request, response, "/console/operation?key=" + Html.query(key));
    }

    private void searchPage(HttpServletRequest request, HttpServletResponse response, ConsoleUser user, String csrf, Instant now) throws IOException {
        Map<String, String> form = new LinkedHashMap<>();
        for (String name : new String[] {"key", "trace", "object", "standing", "from", "to"}) {
            String value = request.getParameter(name);
            if (value != null && !value.isBlank()) {
                form.put(name, value.strip());
            }
        }
        OperationSearch.Page page = null;
        String problem = null;
        if (!form.isEmpty()) {
            try {
                OperationSearch.Query query = new OperationSearch.Query(limited(form.get("key"), "key"), limited(form.get("trace"), "trace id"),
                        limited(form.get("object"), "target object id"),
                        form.containsKey("standing") ? standing(form.get("standing"), false) : null,
                        moment(form.get("from")), moment(form.get("to")));
                page = search.newestFirst(user.tenant(), query, cursor(request), PAGE);
            } catch (Refusal refusal) {
                problem = refusal.getMessage();
                response.setStatus(400);
            }
        }
        String query = form.entrySet().stream().map(e -> e.getKey() + "=" + Html.query(e.getValue())).collect(Collectors.joining("&"));
        show(response, "Search", user, csrf, ConsoleAccess.SEARCH, OperationPages.search(form, page,
                page == null ? Set.of() : search.approvedNow(page.items()), query, problem, now), 0, problem == null ? 200 : 400);
    }

    /** What a person sees when a service refuses: 404 for what is not there, 409 for what stands otherwise; nothing changed. */
    private static Refusal refusal(OperationRefused refused) {
        return new Refusal(refused.reason() == OperationRefused.Reason.OPERATION_NOT_FOUND
                || refused.reason() == OperationRefused.Reason.APPROVAL_NOT_FOUND ? 404 : 409, "Refused, nothing changed: "
                + refused.getMessage() + ".");
    }

    /** A refund's payment as the payment system holds it now: asked here, with no transaction open. */
    private ApprovalPages.Coverage coverage(OperationView op) {
        if (!"payment.refund".equals(op.operation()) || op.payload() == null || !(op.payload().get("payment_id") instanceof jakarta.json.JsonString)) {
            return null;
        }
        String refund = Money.of(op.payload());
        try {
            return new ApprovalPages.Coverage(targets.coverage(op.target(), op.payload().getString("payment_id")), null, refund);
        } catch (PaymentCoverage.Unanswered e) {
            return new ApprovalPages.Coverage(Optional.empty(), e.getMessage(), refund);
        }
    }

    /** A person's decision on an approval, as a span naming the operation and who decided — or what refused it. */
    private static <T> T decided(ConsoleUser user, String key, String what, java.util.function.Supplier<T> deciding) {
        try (Step decision = Spans.step("toolgate.approval", new OperationAttributes(user.tenant(), key, null, null))) {
            decision.outcome(what).set("toolgate.approval.decided_by", user.name());
            try {
                return deciding.get();
            } catch (RuntimeException e) {
                decision.threw(e);
                throw e;
            }
        }
    }

    /**
     * Ends the console session, then the person's session at the identity provider (OpenID Connect RP-Initiated
     * Logout), which sends them back to the signed-out page. Not through the mechanism's own logout
     * ({@code request.logout()}): on WildFly 39 it redirects to its UriBuilder's toString(), an object name under
     * RESTEasy rather than the provider's address (eclipse-ee4j/soteria#367).
     */
    private void signOut(HttpServletRequest request, HttpServletResponse response) throws IOException {
        OpenIdContext context = openId.get();
        String endSession = context.getProviderMetadata().getString("end_session_endpoint", "");
        String idToken = context.getIdentityToken().getToken();
        HttpSession session = request.getSession(false);
        if (session != null) {
            session.invalidate(); // the mechanism keeps the sign-in in the session: without it nobody is signed in here
        }
        String url = request.getRequestURL().toString();
        String signedOut = url.substring(0, url.length() - request.getRequestURI().length()) + request.getContextPath() + "/console/signed-out";
        response.sendRedirect(endSession.isEmpty() ? signedOut : endSession + (endSession.contains("?") ? "&" : "?")
                + "id_token_hint=" + Html.query(idToken) + "&post_logout_redirect_uri=" + Html.query(signedOut));
    }

    private OperationRecords.OperationRecord record(ConsoleUser user, String key) {
        Inputs.key("operation's key", key); // only a key that could have been taken is looked up or shown
        return records.find(user.tenant(), key).orElseThrow(() -> new Refusal(404, "Tenant " + user.tenant() + " has no operation " + key + "."));
    }

    private static ConsoleUser require(ConsoleUser user, ConsoleAccess access) {
        if (!user.may(access)) {
            throw new Refusal(403, "This page is for " + access.roles().stream().map(r -> r.dbName()).sorted()
                    .collect(Collectors.joining(" or ")) + "; you are " + user.roleNames() + ".");
        }
        return user;
    }

    private static ConsoleUser user(HttpServletRequest request) {
        return (ConsoleUser) request.getAttribute(ConsoleGuard.USER);
    }

    private static String path(HttpServletRequest request) {
        return request.getPathInfo() == null ? "" : request.getPathInfo();
    }

    private static Cursor cursor(HttpServletRequest request) {
        String token = request.getParameter("after");
        if (token == null || token.isEmpty()) {
            return null;
        }
        return Cursor.parse(token).orElseThrow(() -> new Refusal(400, "That page link is not one this console made."));
    }

    private static Standing standing(String slug, boolean unfinishedOnly) {
        return Arrays.stream(Standing.values()).filter(s -> s.slug().equals(slug) && !(unfinishedOnly && s.finished())).findFirst()
                .orElseThrow(() -> new Refusal(400, "There is no such standing: " + slug + "."));
    }

    private static String limited(String value, String what) {
        if (value != null && value.length() > 255) {
            throw new Refusal(400, "A " + what + " is at most 255 characters.");
        }
        return value;
    }

    /** A {@code datetime-local} value, read as UTC. */
    private static Instant moment(String value) {
        if (value == null) {
            return null;
        }
        try {
            Instant at = LocalDateTime.parse(value).toInstant(ZoneOffset.UTC);
            if (Cursor.representable(at)) {
                return at;
            }
        } catch (DateTimeParseException e) {
            // said below
        }
        throw new Refusal(400, "A time is written 2026-12-01T09:30, in the years 1970 to 9999: " + value + " is not one.");
    }

    private static long whole(String value) {
        if (value == null || value.isEmpty()) {
            return -1;
        }
        if (!value.matches("[0-9]{1,18}")) {
            throw new Refusal(400, "A run id is a whole number.");
        }
        return Long.parseLong(value);
    }

    private static String text(HttpServletRequest request, String name, int max, boolean required) {
        String value = request.getParameter(name);
        value = value == null ? null : value.strip();
        if (value == null || value.isEmpty()) {
            if (required) {
                throw new Refusal(400, "The form lacks " + name.replace('_', ' ') + ".");
            }
            return null;
        }
        return Inputs.text(name.replace('_', ' '), value, Inputs.Text.PROSE, max);
    }

    /** The form's operation key, held to the key's rules (shape, card numbers) as at every door. */
    private static String key(HttpServletRequest request) {
        String value = request.getParameter("key");
        value = value == null ? null : value.strip();
        if (value == null || value.isEmpty()) {
            throw new Refusal(400, "The form lacks key.");
        }
        return Inputs.key("operation's key", value);
    }

    private static void flash(HttpServletRequest request, String text) {
        request.getSession().setAttribute(FLASH, text);
    }

    private static String flash(HttpServletRequest request) {
        HttpSession session = request.getSession();
        String text = (String) session.getAttribute(FLASH);
        session.removeAttribute(FLASH);
        return text;
    }

    private static void redirect(HttpServletRequest request, HttpServletResponse response, String path) throws IOException {
        response.setStatus(303);
        response.setHeader("Location", request.getContextPath() + path);
    }

    private static void show(HttpServletResponse response, String title, ConsoleUser user, String csrf, ConsoleAccess current,
                             Html body, int refresh) throws IOException {
        show(response, title, user, csrf, current, body, refresh, 200);
    }

    private static void show(HttpServletResponse response, String title, ConsoleUser user, String csrf, ConsoleAccess current,
                             Html body, int refresh, int status) throws IOException {
        ConsolePages.write(response, status, ConsolePages.page(title, user, csrf, current, body, refresh));
    }

    private static void refuse(HttpServletResponse response, Refusal refusal, String csrf) throws IOException {
        ConsolePages.refused(response, refusal.status, refusal.status == 403 ? "Not for your role" : refusal.status == 404 ? "Not found"
                : "Refused", refusal.getMessage(), csrf);
    }
}

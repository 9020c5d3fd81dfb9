package dev.toolgate.gateway.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.search.OperationRecords;
import dev.toolgate.access.Role;
import dev.toolgate.operation.EventView;
import dev.toolgate.operation.OperationStatus;
import dev.toolgate.operation.OperationView;
import dev.toolgate.search.Standing;
import dev.toolgate.targets.Lookup;
import jakarta.json.Json;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One operation's record page ({@link OperationPages#record}) and the pages around it, as drawn: an escalated duplicate
 * names both objects, and only an operator is offered them to resolve with.
 */
class OperationPagesTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    private static final String CSRF = "c5rf-t0ken_of-the-session";
    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final ConsoleSettings SETTINGS = MapConfig.settings(Map.of("toolgate.console.trace-url", "https://traces.example.com/{trace_id}"));

    private static final ConsoleUser OPERATOR = user("olga", Role.OPERATOR);
    private static final ConsoleUser AUDITOR = user("anna", Role.AUDITOR);

    @Test
    void namesBothObjectsOfADuplicate() {
        String page = record(duplicate(), AUDITOR);
        assertTrue(page.contains("<code class=\"duplicate-object\">pay-a</code>"), page);
        assertTrue(page.contains("<code class=\"duplicate-object\">pay-b</code>"), page);
        assertTrue(page.contains("id=\"duplicate\">A duplicate effect: 2 objects"), page);
    }

    @Test
    void offersAnOperatorTheDuplicatesObjectsToResolveWith() {
        String form = resolveForm(record(duplicate(), OPERATOR));
        assertTrue(form.contains("<select id=\"object-id\" name=\"object_id\"><option value=\"\">— choose —</option>"
                + "<option>pay-a</option><option>pay-b</option></select>"), form);
        assertTrue(form.contains("<input type=\"hidden\" name=\"csrf\" value=\"" + CSRF + "\">"), form);
        assertTrue(form.contains("<input type=\"hidden\" name=\"key\" value=\"test:payment.create:7:v1\">"), form);
        assertTrue(form.contains("id=\"resolve-button\""), form);
    }

    @Test
    void offersAnAuditorNothingToResolve() {
        String page = record(duplicate(), AUDITOR);
        assertFalse(page.contains("<form"), page);
        assertFalse(page.contains(CSRF), page);
    }

    @Test
    void offersAnApproverNothingToResolve() {
        assertFalse(record(duplicate(), user("bob", Role.APPROVER)).contains("<form"));
    }

    @Test
    void offersAnOperatorAFreeObjectIdWhenNoDuplicateWasFound() {
        OperationView op = escalated();
        EventView gaveUp = event(2, "escalated", "lookup_unavailable after 12 look-ups");
        String form = resolveForm(OperationPages.record(new OperationRecords.OperationRecord(op, List.of(gaveUp), null), OPERATOR, CSRF, SETTINGS,
                NOW, null).toString());
        assertTrue(form.contains("<input type=\"text\" id=\"object-id\" name=\"object_id\" maxlength=\"255\">"), form);
        assertFalse(form.contains("<select"), form);
    }

    @Test
    void offersNoResolutionOfAnOperationThatIsNotEscalated() {
        OperationView settled = new OperationView("acme", "test:payment.create:7:v1", "agent-a", "payment.create", "yookassa",
                OperationStatus.SUCCEEDED, "a".repeat(64), null, List.of(), "pay-a", null, null, 1, null, 1, null, 0, null, null,
                NOW.minusSeconds(600), NOW.minusSeconds(500), NOW.minusSeconds(500), TRACE, null, false, null);
        assertFalse(OperationPages.record(new OperationRecords.OperationRecord(settled, List.of(), null), OPERATOR, CSRF, SETTINGS, NOW, null)
                .toString().contains("id=\"resolve\""));
    }

    @Test
    void escapesWhatTheTargetAndTheAgentWrote() {
        OperationView op = escalated();
        EventView hostile = event(2, "reconciled", new Lookup.Ambiguous(List.of("<script>x</script>", "b\"c")).describe());
        String page = OperationPages.record(new OperationRecords.OperationRecord(op, List.of(hostile), null), OPERATOR, CSRF, SETTINGS, NOW, null).toString();
        assertFalse(page.contains("<script>"), page);
        assertTrue(page.contains("<option>&lt;script&gt;x&lt;/script&gt;</option><option>b&quot;c</option>"), page);
        assertTrue(page.contains("&lt;b&gt;Заказ&lt;/b&gt;"), "the payload: " + page);
    }

    @Test
    void linksTheTraceToItsSearchAndToTheTraceBackend() {
        String page = record(duplicate(), AUDITOR);
        assertTrue(page.contains("href=\"/console/search?trace=" + TRACE + "\""), page);
        assertTrue(page.contains("href=\"https://traces.example.com/" + TRACE + "\""), page);
    }

    @Test
    void listsTheLookUpsByKeyOldestFirst() {
        String page = record(duplicate(), AUDITOR);
        int started = page.indexOf("reconcile started: lease taken");
        int found = page.indexOf("reconciled: 2 objects carry this key: [pay-a, pay-b]");
        assertTrue(started > 0 && found > started, page);
    }

    @Test
    void countsUnfinishedWorkByStandingWithItsMetricStatus() {
        Map<Standing, Long> counts = new EnumMap<>(Standing.class);
        counts.put(Standing.AWAITING_APPROVAL, 3L);
        counts.put(Standing.ESCALATED, 1L);
        String page = OperationPages.unfinished(counts, null, null, java.util.Set.of(), NOW).toString();
        assertTrue(page.contains("id=\"count-awaiting-approval\">3</td><td><code>pending_approval</code>"), page);
        assertTrue(page.contains("id=\"count-escalated\">1</td><td><code>escalated</code>"), page);
        assertTrue(page.contains("href=\"/console/unfinished?standing=escalated\""), page);
    }

    @Test
    void showsEachRoleOnlyTheWorkItDoesOnTheHomePage() {
        Map<Standing, Long> counts = new EnumMap<>(Standing.class);
        counts.put(Standing.AWAITING_APPROVAL, 2L);
        counts.put(Standing.ESCALATED, 1L);
        counts.put(Standing.UNKNOWN, 4L);
        String approver = OperationPages.home(user("bob", Role.APPROVER), counts).toString();
        assertTrue(approver.contains("2 waiting for an approval") && !approver.contains("escalated"), approver);
        String operator = OperationPages.home(OPERATOR, counts).toString();
        assertTrue(operator.contains("1 escalated to a person") && operator.contains("7 unfinished in all")
                && !operator.contains("waiting for an approval"), operator);
        String auditor = OperationPages.home(AUDITOR, counts).toString();
        assertTrue(auditor.contains("Search the journal") && !auditor.contains("approval") && !auditor.contains("escalated"), auditor);
    }

    private static String record(OperationRecords.OperationRecord record, ConsoleUser user) {
        return OperationPages.record(record, user, CSRF, SETTINGS, NOW, null).toString();
    }

    private static String resolveForm(String page) {
        int start = page.indexOf("<form class=\"action\" method=\"post\" action=\"/console/operation/resolve\" id=\"resolve\">");
        assertTrue(start >= 0, "no resolve form in " + page);
        return page.substring(start, page.indexOf("</form>", start));
    }

    /** An escalated payment whose look-up found two payments carrying its key. */
    private static OperationRecords.OperationRecord duplicate() {
        return new OperationRecords.OperationRecord(escalated(), List.of(
                event(1, "captured", null),
                event(2, "reconcile_started", "lease taken"),
                event(3, "reconciled", new Lookup.Ambiguous(List.of("pay-a", "pay-b")).describe()),
                event(4, "escalated", "duplicate_suspected")), null);
    }

    private static OperationView escalated() {
        return new OperationView("acme", "test:payment.create:7:v1", "agent-a", "payment.create", "yookassa", OperationStatus.UNKNOWN,
                "a".repeat(64), Json.createObjectBuilder().add("order_id", "<b>Заказ</b>").add("amount_minor", 150_000).add("currency", "RUB")
                .build(), List.of(), null, null, "duplicate_suspected", 1, null, 2, NOW.plusSeconds(60), 3, null, NOW.minusSeconds(60),
                NOW.minusSeconds(3600), NOW.minusSeconds(60), null, TRACE, null, false, null);
    }

    private static EventView event(long id, String kind, String detail) {
        return new EventView(id, NOW.minusSeconds(3600 - id * 60), kind, 1, "unknown", null, null, null, "reconciler", detail, TRACE);
    }

    private static ConsoleUser user(String name, Role... roles) {
        return new ConsoleUser(name, "acme", Set.of(roles), NOW.minusSeconds(600));
    }
}

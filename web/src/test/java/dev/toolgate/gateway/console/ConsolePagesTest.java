package dev.toolgate.gateway.console;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.access.Role;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Set;

/** The frame every console page shares ({@link ConsolePages#page}): navigation by role, sign-out, nothing unescaped. */
class ConsolePagesTest {

    private static final String CSRF = "c5rf-t0ken_of-the-session";

    @Test
    void navigatesAnApproverToApprovalsAndSearchOnly() {
        String page = page(user("bob", Role.APPROVER), ConsoleAccess.APPROVALS);
        assertTrue(page.contains("<a aria-current=\"page\" href=\"/console/approvals\">Approvals</a>"), page);
        assertTrue(page.contains("href=\"/console/search\""), page);
        assertFalse(page.contains("/console/escalations") || page.contains("/console/unfinished") || page.contains("/console/reconcile"), page);
    }

    @Test
    void navigatesAnOperatorToEverythingButApprovals() {
        String page = page(user("olga", Role.OPERATOR), ConsoleAccess.HOME);
        for (String href : new String[] {"/console/escalations", "/console/unfinished", "/console/search", "/console/reconcile"}) {
            assertTrue(page.contains("href=\"" + href + "\""), href);
        }
        assertFalse(page.contains("/console/approvals"), page);
    }

    @Test
    void navigatesAnAuditorToSearchOnly() {
        String page = page(user("anna", Role.AUDITOR), ConsoleAccess.SEARCH);
        assertTrue(page.contains("href=\"/console/search\""), page);
        assertFalse(page.contains("/console/approvals") || page.contains("/console/escalations"), page);
    }

    @Test
    void signsOutByAFormCarryingTheSessionsToken() {
        String page = page(user("anna", Role.AUDITOR), ConsoleAccess.HOME);
        assertTrue(page.contains("<form class=\"who\" method=\"post\" action=\"/console/sign-out\">"), page);
        assertTrue(page.contains("<input type=\"hidden\" name=\"csrf\" value=\"" + CSRF + "\"><button type=\"submit\">Sign out</button>"), page);
    }

    @Test
    void escapesThePersonsNameTenantAndThePagesTitle() {
        String page = ConsolePages.page("Approve <payment.refund>?", user("<i>mallory</i>", Role.AUDITOR), CSRF, ConsoleAccess.HOME,
                new Html(), 0);
        assertFalse(page.contains("<i>") || page.contains("<payment.refund>"), page);
        assertTrue(page.contains("&lt;i&gt;mallory&lt;/i&gt;") && page.contains("Approve &lt;payment.refund&gt;?"), page);
    }

    @Test
    void drawsAPageOfNobodyWithoutNavigationOrSignOut() {
        String page = ConsolePages.page("Signed out", null, null, null, new Html().raw("<p>bye</p>"), 0);
        assertFalse(page.contains("<nav") || page.contains("sign-out"), page);
        assertTrue(page.contains("<p>bye</p>"), page);
    }

    @Test
    void reloadsOnlyAPageThatAsksForIt() {
        assertFalse(page(user("olga", Role.OPERATOR), ConsoleAccess.RECONCILE).contains("http-equiv=\"refresh\""));
        assertTrue(ConsolePages.page("Reconcile", user("olga", Role.OPERATOR), CSRF, ConsoleAccess.RECONCILE, new Html(), 2)
                .contains("<meta http-equiv=\"refresh\" content=\"2\">"));
    }

    @Test
    void carriesNoScript() {
        // the content security policy forbids scripts: a page that needed one would not work
        assertFalse(page(user("bob", Role.APPROVER, Role.OPERATOR), ConsoleAccess.HOME).contains("<script"));
    }

    private static String page(ConsoleUser user, ConsoleAccess current) {
        return ConsolePages.page("Console", user, CSRF, current, new Html(), 0);
    }

    private static ConsoleUser user(String name, Role... roles) {
        return new ConsoleUser(name, "acme", Set.of(roles), Instant.parse("2026-12-01T12:00:00Z"));
    }
}

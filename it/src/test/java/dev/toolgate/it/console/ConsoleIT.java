package dev.toolgate.it.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.it.support.Agent;
import dev.toolgate.it.support.Browser;
import dev.toolgate.it.support.ProviderDown;
import dev.toolgate.it.support.SignsPeopleIn;
import dev.toolgate.it.support.TestStack;
import dev.toolgate.it.support.YooKassaDirect;
import dev.toolgate.simulator.SimulatorClient;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

import java.net.URI;
import java.sql.Connection;
import java.sql.Statement;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The console in a real browser against a real Keycloak: the seeds' refund story done by hand by an approver, an
 * operator and an auditor, and every way in that must stay shut — a wrong role, a cross-site POST, an expired
 * session, an agent's bearer token. Every page the story passes is kept as a screenshot in target/screenshots.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // four short tests while a session idles, its expiry, then the rest
@SignsPeopleIn
class ConsoleIT {

    private static final String DATABASE = ConsoleStack.DATABASE;
    private static final HttpClient HTTP = HttpClient.newHttpClient(); // never follows redirects
    /** HTTP/1.1 only: a hostile request must reach the server as sent, not be cut off in an h2c upgrade. */
    private static final HttpClient PLAIN = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final SimulatorClient yooKassa = TestStack.targets();
    private ConsoleStack stack;
    /**
     * How long a session may have been idle and still be the console's to end: the server itself forgets one idle a
     * minute past the console's timeout (ConsoleGuard), and then the sign-in page shows instead of the console's own.
     */
    private static final java.time.Duration IDLE_AT_MOST = java.time.Duration.ofSeconds(ConsoleStack.IDLE_SECONDS + 45);
    /** Alice's session, signed in as the class begins and left idle until {@link #anExpiredSessionReturnsToSignIn}. */
    private Browser idle;
    private java.time.Instant idleSince;
    private RuntimeException idleFailure;

    private static final int JOURNAL_ROWS = 100_000;

    /** The stack, over a journal that already holds {@value #JOURNAL_ROWS} finished operations: the pages are read at that size. */
    @BeforeAll
    void start() throws Exception {
        stack = ConsoleStack.start(DATABASE);
        try {
            idle = stack.signedIn("alice"); // idle from now on: the other tests run while its session expires
            idleSince = java.time.Instant.now();
        } catch (RuntimeException e) {
            idleFailure = e; // the expiry test's to report
        }
        try (Connection c = TestStack.connect(DATABASE); Statement sql = c.createStatement()) {
            sql.execute("INSERT INTO agent_operation_log (tenant, operation_key, agent_id, operation_type, target_system, request_hash,"
                    + " payload, status, target_object_id, response_json, attempt_count, created_at, updated_at, completed_at, trace_id)"
                    + " SELECT 'acme', 'bulk:invoice.create:order-' || i || ':v1', 'agent-a', 'invoice.create', '1c',"
                    + " md5(i::text) || md5((i + 1)::text), jsonb_build_object('order_id', 'order-' || i, 'amount_minor', 1000 + i,"
                    + " 'currency', 'RUB'), 'succeeded', md5('object' || i), '{}'::jsonb, 1, now() - i * interval '25 seconds',"
                    + " now() - i * interval '25 seconds', now() - i * interval '25 seconds', md5('trace' || i)"
                    + " FROM generate_series(1, " + JOURNAL_ROWS + ") i");
            sql.execute("INSERT INTO operation_event (tenant, operation_key, occurred_at, kind, attempt, status, actor, trace_id)"
                    + " SELECT 'acme', o.operation_key, o.created_at, k.kind, 1, k.status, 'agent-a', o.trace_id FROM agent_operation_log o,"
                    + " (VALUES ('captured', 'started'), ('outcome', 'succeeded')) AS k (kind, status) WHERE o.operation_key LIKE 'bulk:%'");
            sql.execute("ANALYZE");
        }
    }

    @AfterAll
    void stop() throws Exception {
        try {
            if (idle != null) {
                idle.close();
            }
        } finally {
            if (stack != null) {
                stack.close();
            }
        }
    }

    /**
     * Seed 003 by hand: the agent's refund waits; the approver sees the amount and what the payment still covers,
     * and approves; the agent's next call sends it and its answer is lost; the operator's reconcile run finds two
     * refunds carrying the key; the operator sees both and resolves; the auditor finds the whole story by trace id.
     */
    @Test
    void theRefundStoryIsDoneByHandInTheConsole() throws Exception {
        String paymentId = YooKassaDirect.create("payments",
                "{\"amount\":{\"value\":\"5000.00\",\"currency\":\"RUB\"},\"capture\":true,\"description\":\"order 77\"}").getString("id");
        String key = "test:payment.refund:console-story-" + UUID.randomUUID() + ":v1";
        String traceId = UUID.randomUUID().toString().replace("-", "");
        String refund = "{\"operation\":\"payment.refund\",\"target\":\"yookassa\",\"payload\":{\"payment_id\":\"" + paymentId
                + "\",\"amount_minor\":125000,\"currency\":\"RUB\",\"reason\":\"Возврат по претензии 77\"}}";
        Agent agent = new Agent(stack.gateway.baseUrl(), "agent-a");

        Agent.Answer waiting = agent.send(submit(agent, key, refund).header("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01"));
        assertEquals(202, waiting.status(), waiting.body());
        assertEquals("pending_approval", waiting.operation().getString("status"));

        try (Browser approver = stack.signedIn("alice")) {
            approver.screenshot("console-01-home-approver");
            approver.open(stack.url("/console/approvals"));
            WebElement row = row(approver, "approvals", key);
            assertTrue(row.getText().contains("1,250.00 RUB"), row.getText());
            assertTrue(row.getText().contains("agent-a"), row.getText());
            approver.screenshot("console-02-approvals-queue");
            approver.driver().findElement(By.linkText("Review " + key)).click();
            assertEquals("1,250.00 RUB", approver.waitFor(By.id("amount")).getText());
            assertEquals("payment_id " + paymentId, text(approver, "recipient"));
            assertEquals("5,000.00 RUB", text(approver, "remaining"), "what the payment still covers, asked of YooKassa");
            assertEquals(agent.find(key).json().getString("request_hash"), text(approver, "fingerprint"));
            approver.screenshot("console-03-approval-decision");
            new Select(approver.driver().findElement(By.id("validity"))).selectByVisibleText("4 hours");
            approver.driver().findElement(By.id("note")).sendKeys("claim 77 checked");
            approver.driver().findElement(By.id("approve-button")).click();
            assertTrue(approver.waitFor(By.id("flash")).getText().startsWith("Approved " + key), approver.currentUrl());
            approver.screenshot("console-04-approved");
            approver.open(stack.url("/console/approvals?show=approved"));
            assertTrue(row(approver, "approvals", key).getText().contains("approved by alice"), "revocable until the agent calls");
        }

        // someone else's refund already carries our key at YooKassa, and the gateway's own answer is lost
        YooKassaDirect.create("refunds", "{\"payment_id\":\"" + paymentId + "\",\"amount\":{\"value\":\"1250.00\",\"currency\":\"RUB\"},"
                + "\"description\":\"manual\",\"metadata\":{\"gw_key\":\"" + Agent.downstream(key) + "\"}}");
        yooKassa.arm("yookassa", Agent.downstream(key), "drop_response_after_commit", 1);
        Agent.Answer lost = agent.submit(key, refund);
        assertEquals(202, lost.status(), lost.body());
        assertEquals("unknown", lost.operation().getString("status"));
        List<String> refunds = yooKassa.effects("yookassa", Agent.downstream(key));
        assertEquals(2, refunds.size(), "the other refund and the gateway's");
        Thread.sleep(1_500); // past the settle window: the look-up is due

        try (Browser operator = stack.signedIn("oscar")) {
            operator.open(stack.url("/console/reconcile"));
            operator.waitFor(By.id("start-button")).click();
            operator.until(page -> "COMPLETED".equals(textOrNull(page, "run-status")));
            operator.screenshot("console-05-reconcile-run");
            operator.open(stack.url("/console/escalations"));
            row(operator, "escalations", key);
            operator.screenshot("console-06-escalations");
            operator.driver().findElement(By.linkText(key)).click();
            operator.waitFor(By.id("duplicate"));
            List<String> shown = operator.driver().findElements(By.className("duplicate-object")).stream().map(WebElement::getText)
                    .collect(Collectors.toList());
            assertEquals(refunds.stream().sorted().toList(), shown.stream().sorted().toList(), "both objects at the target");
            assertTrue(text(operator, "look-ups").contains("objects carry this key"), text(operator, "look-ups"));
            assertTrue(operator.driver().findElement(By.id("trace")).getText().contains(traceId));
            operator.screenshot("console-07-escalated-record");
            String ours = refunds.get(1);
            operator.driver().findElement(By.id("outcome-succeeded")).click();
            new Select(operator.driver().findElement(By.id("object-id"))).selectByVisibleText(ours);
            operator.driver().findElement(By.id("evidence")).sendKeys("refund " + refunds.get(0) + " was the manual one; returned by the bank");
            operator.driver().findElement(By.id("resolve-button")).click();
            assertTrue(operator.waitFor(By.id("flash")).getText().startsWith("Resolved " + key), operator.currentUrl());
            assertEquals("succeeded", text(operator, "status"));
            assertEquals(ours, text(operator, "target-object"));
            operator.screenshot("console-08-resolved");
        }

        try (Browser auditor = stack.signedIn("audrey")) {
            auditor.open(stack.url("/console/search"));
            auditor.waitFor(By.id("trace")).sendKeys(traceId);
            auditor.driver().findElement(By.id("search-button")).click();
            row(auditor, "results", key);
            auditor.screenshot("console-09-search-by-trace");
            auditor.driver().findElement(By.linkText(key)).click();
            String timeline = auditor.waitFor(By.id("timeline")).getText();
            for (String step : List.of("captured", "approved", "attempt started", "escalated", "resolved")) {
                assertTrue(timeline.contains(step), step + " in " + timeline);
            }
            assertTrue(timeline.contains("alice") && timeline.contains("oscar"), "each person's decision under their name: " + timeline);
            assertTrue(timeline.contains("DUPLICATE EFFECT"), timeline);
            assertTrue(text(auditor, "approved-by").startsWith("alice"));
            assertEquals(0, auditor.driver().findElements(By.cssSelector("form.action")).size(), "an auditor gets no buttons");
            auditor.screenshot("console-10-record-for-the-auditor");
        }
        JsonObject record = agent.find(key).json();
        assertEquals("succeeded", record.getString("status"));
        assertEquals(refunds.get(1), record.getString("target_object_id"));
        assertEquals(2, yooKassa.creates("yookassa", Agent.downstream(key)), "nothing more was sent after the lost answer");
        try (Connection c = TestStack.connect(DATABASE); java.sql.PreparedStatement decisions = c.prepareStatement(
                "SELECT kind, trace_id FROM operation_event WHERE operation_key = ? AND kind IN ('approved', 'resolved') ORDER BY id")) {
            decisions.setString(1, key);
            try (java.sql.ResultSet r = decisions.executeQuery()) {
                List<String> traced = new java.util.ArrayList<>();
                while (r.next()) {
                    assertTrue(r.getString(2) != null && r.getString(2).matches("[0-9a-f]{32}"), r.getString(1) + " journaled with a trace id");
                    traced.add(r.getString(1));
                }
                assertEquals(List.of("approved", "resolved"), traced, "each person's decision in the console, as through the API");
            }
        }
    }

    @Test
    void aWrongRoleGetsForbiddenPagesAndNoButtons() throws Exception {
        String key = awaitingRefund("wrong-role");
        try (Browser auditor = stack.signedIn("audrey")) {
            for (String page : List.of("/console/approvals", "/console/approval?key=" + query(key), "/console/escalations",
                    "/console/unfinished", "/console/reconcile")) {
                auditor.open(stack.url(page));
                assertEquals("Not for your role", auditor.waitFor(By.tagName("h1")).getText(), page);
                assertEquals(0, auditor.driver().findElements(By.cssSelector("form.action")).size(), page);
            }
            auditor.screenshot("console-11-forbidden-for-an-auditor");
            auditor.open(stack.url("/console/operation?key=" + query(key)));
            auditor.waitFor(By.id("timeline"));
            assertEquals(0, auditor.driver().findElements(By.cssSelector("form.action")).size(), "reads, never acts");
            assertEquals(List.of("Search"), navigation(auditor.driver()));
            // bad input gets a page saying what is wrong, never a 500
            for (String bad : List.of("/console/search?from=%2B300000-01-01T00:00", "/console/search?from=yesterday",
                    "/console/search?standing=lost", "/console/search?key=x&after=not-a-cursor")) {
                auditor.open(stack.url(bad));
                assertTrue(auditor.waitFor(By.id("search-problem")).isDisplayed(), bad);
            }
            for (String missing : List.of("/console/operation", "/console/operation?key=no-such-key", "/console/nothing-here")) {
                auditor.open(stack.url(missing));
                assertTrue(List.of("Refused", "Not found").contains(auditor.waitFor(By.tagName("h1")).getText()), missing);
            }
        }
        try (Browser approver = stack.signedIn("alice")) {
            assertEquals(List.of("Approvals", "Search"), navigation(approver.driver()));
            approver.open(stack.url("/console/escalations"));
            assertEquals("Not for your role", approver.waitFor(By.tagName("h1")).getText());
        }
        try (Browser nobody = new Browser()) {
            nobody.open(stack.url("/console/")).signIn("nora", "nora-pw");
            assertEquals("No access to the console", nobody.waitFor(By.tagName("h1")).getText());
            assertTrue(nobody.driver().getPageSource().contains("holds no console role"));
            nobody.screenshot("console-12-no-console-role");
        }
        try (Browser otherTenant = stack.signedIn("bella")) { // an approver of globex sees nothing of acme
            otherTenant.open(stack.url("/console/approval?key=" + query(key)));
            assertEquals("Not found", otherTenant.waitFor(By.tagName("h1")).getText());
        }
        assertEquals("pending_approval", new Agent(stack.gateway.baseUrl(), "agent-a").find(key).operation().getString("status"));
    }

    @Test
    @Order(2)
    void unfinishedCountsMatchTheMetrics() throws Exception {
        awaitingRefund("counted");
        try (Browser operator = stack.signedIn("oscar")) {
            operator.open(stack.url("/console/unfinished"));
            operator.waitFor(By.id("unfinished-counts"));
            String metrics = HTTP.send(HttpRequest.newBuilder(URI.create(stack.url("/api/metrics")))
                    .header("Authorization", "Bearer " + dev.toolgate.it.support.Credentials.token(stack.gateway.baseUrl(), "operator"))
                    .build(), HttpResponse.BodyHandlers.ofString()).body();
            long approvals = Long.parseLong(text(operator, "count-awaiting-approval")) + Long.parseLong(text(operator, "count-awaiting-caller"));
            assertTrue(approvals >= 1);
            // one tenant in this journal: its counts are the metric's, which counts all tenants
            assertEquals(approvals, metric(metrics, "pending_approval"));
            assertEquals(Long.parseLong(text(operator, "count-in-flight")) + Long.parseLong(text(operator, "count-lease-lapsed")),
                    metric(metrics, "started"));
            assertEquals(Long.parseLong(text(operator, "count-escalated")), metric(metrics, "escalated"));
            assertEquals(Long.parseLong(text(operator, "count-unknown")), metric(metrics, "unknown"));
            assertEquals(Long.parseLong(text(operator, "count-retry-waiting")), metric(metrics, "failed_retryable"));
            operator.screenshot("console-13-unfinished");
        }
    }

    /** A cross-site form cannot act: SameSite keeps the session cookie off it, and the CSRF token and Origin check refuse it anyway. */
    @Test
    @Order(1)
    void aCrossSitePostIsRefused() throws Exception {
        String key = awaitingRefund("cross-site");
        String fingerprint = new Agent(stack.gateway.baseUrl(), "agent-a").find(key).operation().getString("request_hash");
        try (Browser approver = stack.signedIn("alice"); ForgingSite forger = ForgingSite.start(stack.url("/console/approvals/approve"), key, fingerprint)) {
            Cookie session = approver.driver().manage().getCookieNamed("TOOLGATE_CONSOLE");
            assertTrue(session.isHttpOnly(), "no script reads the session");
            assertEquals("Lax", session.getSameSite());
            String token = approver.open(stack.url("/console/approval?key=" + query(key)))
                    .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#approve input[name=csrf]"))).getAttribute("value");

            approver.open(forger.url()); // another site's page that posts the approval form the moment it loads
            // the session cookie stays home (SameSite): the console sees nobody signed in, and sends the browser to sign in
            approver.waitFor(By.id("kc-login"));
            assertTrue(approver.currentUrl().startsWith(stack.keycloak.issuer()), approver.currentUrl());
            approver.screenshot("console-14-cross-site-post");

            String cookie = "TOOLGATE_CONSOLE=" + session.getValue(); // the signed-in session, sent as if the browser had
            String form = "key=" + query(key) + "&fingerprint=" + fingerprint + "&validity=" + query("1 hour");
            assertEquals(403, post(cookie, form + "&csrf=guessed", null), "a wrong token");
            assertEquals(403, post(cookie, form, null), "no token");
            assertEquals(403, post(cookie, form + "&csrf=" + token, "http://evil.example"), "the right token, from another origin");
            assertEquals(403, post(cookie, form + "&csrf=" + token, null, "cross-site"), "the right token, from another site by the browser's word");
        }
        assertEquals("pending_approval", new Agent(stack.gateway.baseUrl(), "agent-a").find(key).operation().getString("status"),
                "nothing was approved");
    }

    /**
     * A session left idle past the idle timeout (and 3 s more) is over: the session signed in as the class began, which
     * nothing has used since, while the four tests before this one ran, so that little of the wait is left to sleep. One
     * idle longer than {@link #IDLE_AT_MOST} (a slow machine) is closed and a new one signed in and waited for whole.
     */
    @Test
    @Order(5)
    void anExpiredSessionReturnsToSignIn() throws Exception {
        if (idleFailure != null) {
            throw idleFailure;
        }
        if (java.time.Duration.between(idleSince, java.time.Instant.now()).compareTo(IDLE_AT_MOST) > 0) {
            idle.close();
            idle = stack.signedIn("alice");
            idleSince = java.time.Instant.now();
        }
        try (Browser approver = idle) {
            idle = null;
            java.time.Duration left = java.time.Duration.between(java.time.Instant.now(),
                    idleSince.plusSeconds(ConsoleStack.IDLE_SECONDS + 3));
            if (!left.isNegative()) {
                Thread.sleep(left.toMillis());
            }
            approver.open(stack.url("/console/approvals"));
            assertTrue(approver.waitFor(By.id("signed-out")).getText().contains("expired"), approver.currentUrl());
            approver.screenshot("console-15-session-expired");
            approver.driver().findElement(By.id("sign-in")).click();
            approver.waitFor(By.id("password")); // the console's session is gone, not renewed: the identity provider is asked again
            assertTrue(approver.currentUrl().startsWith(stack.keycloak.issuer()), approver.currentUrl());
            approver.signIn("alice", "alice-pw").waitFor(By.id("signed-in-as"));
        }
    }

    @Test
    @Order(4)
    void signingOutEndsTheIdentityProvidersSessionToo() {
        try (Browser approver = stack.signedIn("alice")) {
            approver.driver().findElement(By.cssSelector("form.who button")).click();
            assertTrue(approver.waitFor(By.id("signed-out")).getText().contains("signed out"));
            approver.open(stack.url("/console/approvals"));
            approver.waitFor(By.id("kc-login"));
            assertTrue(approver.currentUrl().startsWith(stack.keycloak.issuer()), approver.currentUrl());
            // the login page asks for the password anyway (prompt=login); the provider's session cookie says it ended
            assertNull(approver.driver().manage().getCookieNamed("KEYCLOAK_SESSION"), "the identity provider forgot alice too");
        }
    }

    /** The identity provider stopped: a page that says so, 503, never the container's 500; signing in works again once it is back. */
    @Test
    void signingInWithTheIdentityProviderDownAnswersAPageThatSaysSo() throws Exception {
        ProviderDown.signingInSaysSoAndRecovers(stack.keycloak, stack.keycloak::whileDown, stack.gateway.baseUrl());
    }

    @Test
    @Order(3)
    void anAgentsTokenDoesNotOpenTheConsole() throws Exception {
        String token = dev.toolgate.it.support.Credentials.token(stack.gateway.baseUrl(), "agent-a");
        for (String role : List.of("agent-a", "approver", "operator")) {
            HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(stack.url("/console/approvals")))
                    .header("Authorization", "Bearer " + dev.toolgate.it.support.Credentials.token(stack.gateway.baseUrl(), role)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(302, answer.statusCode(), role + ": " + answer.body());
            assertTrue(answer.headers().firstValue("Location").orElse("").startsWith(stack.keycloak.issuer() + "/protocol/openid-connect/auth"),
                    answer.headers().toString());
            assertFalse(answer.body().contains("Approvals"));
        }
        HttpResponse<String> api = HTTP.send(HttpRequest.newBuilder(URI.create(stack.url("/api/v1/approvals")))
                .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(403, api.statusCode(), "the same token at the API: an agent, not an approver");
        HttpResponse<String> forged = HTTP.send(HttpRequest.newBuilder(URI.create(stack.url("/console/approvals/approve")))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("key=x")).build(), HttpResponse.BodyHandlers.ofString());
        assertNotEquals(200, forged.statusCode());
        assertNotEquals(303, forged.statusCode());
    }

    private static long metric(String metrics, String status) {
        java.util.regex.Matcher line = java.util.regex.Pattern.compile("(?m)^toolgate_operations_unfinished\\{status=\"" + status + "\"\\} (\\d+)$")
                .matcher(metrics);
        assertTrue(line.find(), status + " in " + metrics);
        return Long.parseLong(line.group(1));
    }

    /**
     * Every door holds the line, the console's too: signed in as the approver and as the operator, the console's own
     * pages are crawled for every page link and every form (what the application itself offers each role), and each is
     * fed the hostile table — in each query parameter of each link, in each field of each form (with the session's
     * CSRF token, from the console's own origin). Every answer is a 4xx page, never a 5xx; nothing is stored.
     */
    @Test
    void everyPageAndFormRefusesEveryHostileValueWithAPage() throws Exception {
        String key = awaitingRefund("hostile");
        Agent reader = new Agent(stack.gateway.baseUrl(), "agent-a");
        String before = reader.find(key).body();
        long approvals;
        try (Connection c = TestStack.connect(DATABASE); java.sql.ResultSet n = c.createStatement().executeQuery("SELECT count(*) FROM operation_approval")) {
            n.next();
            approvals = n.getLong(1);
        }
        List<String> hostile = List.of("k%00x", "k%01x", "k%7Fx", "k%C2%85x", "k%ED%A0%80x", "k%FFx", "t:pay:4111111111111111:v1",
                "card%204111%201111%201111%201111", "k".repeat(5000));
        List<String> failures = new ArrayList<>();
        int sent = 0;
        java.util.Set<String> seenPages = new java.util.TreeSet<>();
        java.util.Set<String> seenForms = new java.util.TreeSet<>();
        for (String person : List.of("alice", "oscar")) {
            try (Browser browser = stack.signedIn(person)) {
                String cookie = "TOOLGATE_CONSOLE=" + browser.driver().manage().getCookieNamed("TOOLGATE_CONSOLE").getValue();
                java.util.Map<String, String> pages = new java.util.LinkedHashMap<>(); // path → query, each page once
                java.util.Map<String, java.util.Map<String, String>> forms = new java.util.LinkedHashMap<>(); // action → fields as offered
                java.util.ArrayDeque<String> toRead = new java.util.ArrayDeque<>(List.of("/console/", "/console/operation?key=" + query(key),
                        "/console/approval?key=" + query(key)));
                String csrf = null;
                while (!toRead.isEmpty() && pages.size() < 40) {
                    String url = toRead.poll();
                    String path = url.contains("?") ? url.substring(0, url.indexOf('?')) : url;
                    if (pages.containsKey(path) && !url.contains("?")) {
                        continue;
                    }
                    HttpResponse<String> page = PLAIN.send(HttpRequest.newBuilder(URI.create(stack.url(url))).header("Cookie", cookie).build(),
                            HttpResponse.BodyHandlers.ofString());
                    pages.merge(path, url.contains("?") ? url.substring(url.indexOf('?') + 1) : "", (a, b) -> a.isEmpty() ? b : a);
                    java.util.regex.Matcher link = java.util.regex.Pattern.compile("href=\"(/console/[^\"#]*)\"").matcher(page.body());
                    while (link.find()) {
                        String next = link.group(1).replace("&amp;", "&");
                        String nextPath = next.contains("?") ? next.substring(0, next.indexOf('?')) : next;
                        if (!pages.containsKey(nextPath) && !next.contains("sign-out")) {
                            toRead.add(next);
                        }
                    }
                    java.util.regex.Matcher form = java.util.regex.Pattern.compile("(?s)<form[^>]*method=\"post\"[^>]*action=\"(/console/[^\"]*)\"(.*?)</form>")
                            .matcher(page.body());
                    while (form.find()) {
                        java.util.Map<String, String> fields = offered(form.group(2));
                        java.util.regex.Matcher token = java.util.regex.Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"").matcher(form.group(2));
                        if (token.find()) {
                            csrf = token.group(1);
                        }
                        if (!form.group(1).endsWith("/sign-out")) {
                            forms.putIfAbsent(form.group(1), fields);
                        }
                    }
                }
                seenPages.addAll(pages.keySet());
                // typed values a page reads as its own: an instant outside the calendar, a run id beyond a long, a forged cursor
                for (String typed : List.of("/console/search?from=%2B999999999-12-31T23:59", "/console/search?to=0000-00-00T00:00",
                        "/console/reconcile?run=99999999999999999999999", "/console/search?key=k&after=" + "A".repeat(300))) {
                    HttpResponse<String> answer = PLAIN.send(HttpRequest.newBuilder(URI.create(stack.url(typed))).header("Cookie", cookie).build(),
                            HttpResponse.BodyHandlers.ofString());
                    sent++;
                    check(failures, answer, person + " GET " + typed);
                }
                seenForms.addAll(forms.keySet());
                for (java.util.Map.Entry<String, String> page : pages.entrySet()) {
                    java.util.List<String> names = new ArrayList<>();
                    for (String pair : page.getValue().split("&")) {
                        if (!pair.isEmpty()) {
                            names.add(pair.contains("=") ? pair.substring(0, pair.indexOf('=')) : pair);
                        }
                    }
                    if (names.isEmpty()) {
                        names.add("x"); // a page that reads no query: the value in one it does not read
                    }
                    for (String name : names) {
                        for (String value : hostile) {
                            HttpResponse<String> answer = PLAIN.send(HttpRequest.newBuilder(URI.create(stack.url(page.getKey() + "?" + name + "=" + value)))
                                    .header("Cookie", cookie).build(), HttpResponse.BodyHandlers.ofString());
                            sent++;
                            check(failures, answer, person + " GET " + page.getKey() + "?" + name + "=" + abbreviated(value));
                        }
                    }
                }
                for (java.util.Map.Entry<String, java.util.Map<String, String>> form : forms.entrySet()) {
                    for (String name : form.getValue().keySet()) {
                        if (name.equals("csrf")) {
                            continue;
                        }
                        for (String value : hostile) {
                            StringBuilder body = new StringBuilder("csrf=" + csrf);
                            for (java.util.Map.Entry<String, String> other : form.getValue().entrySet()) { // the rest as the form offers them
                                if (!other.getKey().equals("csrf")) {
                                    body.append('&').append(other.getKey()).append('=')
                                            .append(other.getKey().equals(name) ? value : query(other.getValue()));
                                }
                            }
                            HttpResponse<String> answer = PLAIN.send(HttpRequest.newBuilder(URI.create(stack.url(form.getKey())))
                                    .header("Cookie", cookie).header("Origin", stack.url("").replaceAll("(https?://[^/]+).*", "$1"))
                                    .header("Content-Type", "application/x-www-form-urlencoded")
                                    .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
                            sent++;
                            check(failures, answer, person + " POST " + form.getKey() + " " + name + "=" + abbreviated(value));
                        }
                    }
                }
            }
        }
        System.out.printf("every door, console: %d pages %s, %d forms %s, %d hostile requests, %d not refused with a 4xx page%n",
                seenPages.size(), seenPages, seenForms.size(), seenForms, sent, failures.size());
        assertTrue(seenPages.containsAll(List.of("/console/", "/console/approvals", "/console/search", "/console/operation", "/console/reconcile")),
                "the crawl reached the pages: " + seenPages);
        assertTrue(seenForms.containsAll(List.of("/console/approvals/approve", "/console/approvals/decline", "/console/reconcile")),
                "the crawl reached the forms: " + seenForms);
        assertTrue(failures.isEmpty(), failures.size() + " not refused:\n" + String.join("\n", failures.subList(0, Math.min(40, failures.size()))));
        assertEquals(before, reader.find(key).body(), "the refund awaits approval as it did: nothing decided");
        try (Connection c = TestStack.connect(DATABASE); java.sql.ResultSet n = c.createStatement().executeQuery("SELECT count(*) FROM operation_approval")) {
            n.next();
            assertEquals(approvals, n.getLong(1), "no approval stored");
        }
    }

    /** A form's fields with the values it offers: an input's value, a select's first option, an empty text area. */
    private static java.util.Map<String, String> offered(String form) {
        java.util.Map<String, String> fields = new LinkedHashMap<>();
        java.util.regex.Matcher input = java.util.regex.Pattern.compile("<input[^>]*>").matcher(form);
        while (input.find()) {
            String name = attribute(input.group(), "name");
            if (name != null) {
                fields.put(name, java.util.Objects.requireNonNullElse(attribute(input.group(), "value"), "").replace("&amp;", "&"));
            }
        }
        java.util.regex.Matcher select = java.util.regex.Pattern.compile("(?s)<select[^>]*name=\"([^\"]+)\"[^>]*>(.*?)</select>").matcher(form);
        while (select.find()) {
            java.util.regex.Matcher option = java.util.regex.Pattern.compile("(?s)<option([^>]*)>([^<]*)").matcher(select.group(2));
            String value = "";
            if (option.find()) {
                value = java.util.Objects.requireNonNullElse(attribute(option.group(1), "value"), option.group(2).strip());
            }
            fields.put(select.group(1), value.replace("&amp;", "&"));
        }
        java.util.regex.Matcher area = java.util.regex.Pattern.compile("<textarea[^>]*name=\"([^\"]+)\"").matcher(form);
        while (area.find()) {
            fields.put(area.group(1), "");
        }
        return fields;
    }

    private static String attribute(String tag, String name) {
        java.util.regex.Matcher value = java.util.regex.Pattern.compile("\\s" + name + "=\"([^\"]*)\"").matcher(tag);
        return value.find() ? value.group(1) : null;
    }

    private static void check(List<String> failures, HttpResponse<String> answer, String what) {
        if (answer.statusCode() < 400 || answer.statusCode() >= 500) {
            failures.add(answer.statusCode() + " for " + what);
        } else if (answer.body().contains("4111")) {
            failures.add("the page quotes the card number: " + what);
        }
    }

    private static String abbreviated(String text) {
        return text.length() > 40 ? text.substring(0, 40) + "…" : text;
    }

    private String awaitingRefund(String intent) {
        String paymentId = YooKassaDirect.create("payments",
                "{\"amount\":{\"value\":\"900.00\",\"currency\":\"RUB\"},\"capture\":true,\"description\":\"" + intent + "\"}").getString("id");
        String key = "test:payment.refund:console-" + intent + "-" + UUID.randomUUID() + ":v1";
        Agent agent = new Agent(stack.gateway.baseUrl(), "agent-a");
        Agent.Answer answer = agent.submit(key, "{\"operation\":\"payment.refund\",\"target\":\"yookassa\",\"payload\":{\"payment_id\":\""
                + paymentId + "\",\"amount_minor\":10000,\"currency\":\"RUB\",\"reason\":\"" + intent + "\"}}");
        assertEquals(202, answer.status(), answer.body());
        return key;
    }

    private int post(String cookie, String form, String origin) throws Exception {
        return post(cookie, form, origin, null);
    }

    private int post(String cookie, String form, String origin, String fetchSite) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(stack.url("/console/approvals/approve")))
                .header("Cookie", cookie).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form));
        if (origin != null) {
            request.header("Origin", origin);
        }
        if (fetchSite != null) {
            request.header("Sec-Fetch-Site", fetchSite);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static HttpRequest.Builder submit(Agent agent, String key, String body) {
        return agent.operations().header("Idempotency-Key", key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    /** The row of table {@code table} that names {@code key}, once the page shows it. */
    private static WebElement row(Browser browser, String table, String key) {
        browser.waitFor(By.id(table));
        return browser.driver().findElements(By.cssSelector("#" + table + " tbody tr")).stream()
                .filter(tr -> tr.getText().contains(key)).findFirst()
                .orElseThrow(() -> new AssertionError(key + " not in #" + table + ": " + browser.driver().findElement(By.id(table)).getText()));
    }

    private static String text(Browser browser, String id) {
        return browser.waitFor(By.id(id)).getAttribute("textContent").strip();
    }

    private static String textOrNull(WebDriver page, String id) {
        try {
            return page.findElement(By.id(id)).getAttribute("textContent").strip();
        } catch (NoSuchElementException | StaleElementReferenceException e) {
            return null;
        } catch (WebDriverException e) {
            // a page that refreshes itself (a running reconcile run) can be replaced between the find and the read;
            // Chromium then says so in its own words rather than as a stale element (seen in CI)
            if (String.valueOf(e.getMessage()).contains("does not belong to the document")) {
                return null;
            }
            throw e;
        }
    }

    private static List<String> navigation(WebDriver page) {
        return page.findElements(By.cssSelector("header nav a")).stream().map(WebElement::getText).toList();
    }

    private static String query(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}

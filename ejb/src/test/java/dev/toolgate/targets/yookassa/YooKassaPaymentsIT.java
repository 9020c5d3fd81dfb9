package dev.toolgate.targets.yookassa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.targets.TargetUnanswered;
import dev.toolgate.simulator.SimulatorClient;
import dev.toolgate.simulator.Simulators;
import dev.toolgate.targets.Attempt;
import dev.toolgate.targets.Lookup;
import dev.toolgate.targets.Outcome;
import dev.toolgate.targets.PaymentCoverage;
import dev.toolgate.targets.tls.SimulatorTrust;
import dev.toolgate.targets.tls.TlsSettings;
import dev.toolgate.canonical.AgentCommand;
import dev.toolgate.canonical.Canonicalizer;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The YooKassa adapter against the simulator: each documented answer and fault maps to one outcome, and what a
 * payment still covers ({@link YooKassaPayments#coverage}) is read as the provider holds it or said to be unknowable.
 */
class YooKassaPaymentsIT {

    private static Simulators simulators;
    private static SimulatorClient control;
    private static YooKassaPayments payments;

    @BeforeAll
    static void start() throws Exception {
        simulators = Simulators.start(0);
        control = new SimulatorClient(simulators.baseUrl());
        payments = new YooKassaPayments(settings(Simulators.YOOKASSA_SECRET_KEY));
    }

    @AfterAll
    static void stop() {
        simulators.close();
    }

    @Test
    void createsOnePaymentCarryingOurKeyAndFindsItByListing() {
        Attempt dispatch = payment(1, 150_000);
        Outcome.Succeeded created = assertInstanceOf(Outcome.Succeeded.class, payments.execute(dispatch));
        assertEquals("1500.00", created.result().getJsonObject("amount").getString("value"));
        assertEquals(List.of(created.objectId()), control.effects("yookassa", dispatch.downstreamKey()));
        assertEquals(created.objectId(), assertInstanceOf(Lookup.Found.class, payments.lookup(dispatch)).objectId());
    }

    @Test
    void looksUpSeveralPaymentsInOneListEachAnsweredAsItsOwnLookUpWouldBe() {
        assertLookedUpTogetherAsEachAlone(payment(1, 11_000), payment(1, 12_000), payment(1, 13_000));
    }

    @Test
    void aSharedListReachesBackToTheEarliestCaptureAndAnswersEachKeyFromItsOwnWindow() {
        Instant now = Instant.now();
        Attempt early = captured(payment(1, 18_000), now.minus(Duration.ofHours(1)));
        Attempt late = captured(payment(1, 19_000), now.plus(Duration.ofHours(1))); // its window starts after its payment
        String paid = ((Outcome.Succeeded) payments.execute(early)).objectId();
        payments.execute(late);

        List<Lookup> answers = payments.lookupAll(List.of(late, early));

        assertInstanceOf(Lookup.Absent.class, answers.get(0), "outside its own window, as its own list would say");
        assertEquals(paid, assertInstanceOf(Lookup.Found.class, answers.get(1)).objectId(), "the list starts at the earliest capture");
        assertEquals(List.of(payments.lookup(late), payments.lookup(early)), answers);
    }

    @Test
    void aSharedListThatCannotBeReadNowLeavesEveryKeyUnavailable() {
        Attempt one = payment(1, 14_000);
        Attempt two = payment(1, 15_000);
        payments.execute(one);
        for (int status : List.of(500, 429, 401)) {
            control.armStatus("yookassa", "payments?", "GET", status, 1); // one list for both: both answers are its
            assertEquals(List.of(new Lookup.Unavailable("target_http_" + status), new Lookup.Unavailable("target_http_" + status)),
                    payments.lookupAll(List.of(one, two)), "HTTP " + status);
        }
        assertInstanceOf(Lookup.Found.class, payments.lookupAll(List.of(one, two)).get(0), "the list read again");
    }

    @Test
    void refundsOfOnePaymentShareItsListEachAnsweredAsItsOwnLookUpWouldBe() {
        String paymentId = ((Outcome.Succeeded) payments.execute(payment(1, 100_000))).objectId();
        assertLookedUpTogetherAsEachAlone(refund(1, paymentId, 10_000), refund(1, paymentId, 20_000), refund(1, paymentId, 30_000));
    }

    /** One object made, one made twice, one never sent, looked up together: found, ambiguous, absent — each as alone. */
    private static void assertLookedUpTogetherAsEachAlone(Attempt one, Attempt doubled, Attempt absent) {
        String first = ((Outcome.Succeeded) payments.execute(one)).objectId();
        control.arm("yookassa", doubled.downstreamKey(), "duplicate", 1);
        payments.execute(doubled);

        List<Lookup> answers = payments.lookupAll(List.of(one, doubled, absent));

        assertEquals(first, assertInstanceOf(Lookup.Found.class, answers.get(0)).objectId());
        assertEquals(2, assertInstanceOf(Lookup.Ambiguous.class, answers.get(1)).objectIds().size());
        assertInstanceOf(Lookup.Absent.class, answers.get(2));
        assertEquals(List.of(payments.lookup(one), payments.lookup(doubled), payments.lookup(absent)), answers);
    }

    @Test
    void aRefundsListThatCannotBeReadNowLeavesEveryRefundOfItsPaymentUnavailableAndNoOther() {
        String paid = ((Outcome.Succeeded) payments.execute(payment(1, 100_000))).objectId();
        String other = ((Outcome.Succeeded) payments.execute(payment(1, 100_000))).objectId();
        Attempt one = refund(1, paid, 10_000);
        Attempt two = refund(1, paid, 20_000);
        Attempt elsewhere = refund(1, other, 30_000);
        List.of(one, two, elsewhere).forEach(payments::execute);
        control.armStatus("yookassa", "refunds?", "GET", 500, 1); // the first payment's list, shared by its two refunds

        List<Lookup> answers = payments.lookupAll(List.of(one, two, elsewhere));

        assertEquals(List.of(new Lookup.Unavailable("target_http_500"), new Lookup.Unavailable("target_http_500")),
                answers.subList(0, 2));
        assertInstanceOf(Lookup.Found.class, answers.get(2), "the other payment's refunds are a list of their own");
        assertTrue(payments.lookupAll(List.of(one, two)).stream().allMatch(Lookup.Found.class::isInstance), "the list read again");
    }

    @Test
    void aPaymentTheProviderNamedIsAskedForByIdAndTheRestShareAList() {
        Attempt dispatch = payment(1, 16_000);
        control.armPending("yookassa", dispatch.downstreamKey(), 60_000);
        Outcome.Pending pending = assertInstanceOf(Outcome.Pending.class, payments.execute(dispatch));
        Attempt named = new Attempt(dispatch.downstreamKey(), dispatch.operation(), 1, dispatch.payload(), dispatch.createdAt(),
                pending.objectId(), null);
        Attempt other = payment(1, 17_000);
        control.armStatus("yookassa", "payments?", "GET", 500, 1); // the list: the named payment does not need it
        List<Lookup> answers = payments.lookupAll(List.of(named, other));
        assertTrue(assertInstanceOf(Lookup.Pending.class, answers.get(0)).detail().contains(pending.objectId()), answers.get(0).toString());
        assertEquals(new Lookup.Unavailable("target_http_500"), answers.get(1));

        assertEquals(YooKassaKeyLookups.LOOKUP_BATCH, payments.lookupBatch("payment.create"));
        assertEquals(YooKassaKeyLookups.LOOKUP_BATCH, payments.lookupBatch("payment.refund"));
    }

    @Test
    void sendsTheSameIdempotenceKeyOnEveryAttemptSoALostAnswerIsNotASecondPayment() {
        Attempt first = payment(1, 10_000);
        control.arm("yookassa", first.downstreamKey(), "drop_response_after_commit", 1);
        assertInstanceOf(Outcome.Unknown.class, payments.execute(first));

        Outcome.Succeeded again = assertInstanceOf(Outcome.Succeeded.class, payments.execute(attempt(first, 2)));
        assertEquals(List.of(again.objectId()), control.effects("yookassa", first.downstreamKey()), "the provider answered the original");
        assertEquals(64, YooKassaPayments.idempotenceKey(first).length());
    }

    @Test
    void mapsPendingAndAcceptedButNotProcessedToPendingAndFindsItSucceededLater() throws Exception {
        Attempt dispatch = payment(1, 20_000);
        control.armPending("yookassa", dispatch.downstreamKey(), 300);
        Outcome.Pending pending = assertInstanceOf(Outcome.Pending.class, payments.execute(dispatch));
        assertNotNull(pending.objectId());
        Attempt known = new Attempt(dispatch.downstreamKey(), dispatch.operation(), 1, dispatch.payload(), dispatch.createdAt(),
                pending.objectId(), null);
        assertInstanceOf(Lookup.Pending.class, payments.lookup(known));
        Thread.sleep(400);
        assertEquals(pending.objectId(), assertInstanceOf(Lookup.Found.class, payments.lookup(known)).objectId());

        Attempt accepted = payment(1, 20_000);
        control.armStatus("yookassa", accepted.downstreamKey(), 202, 1);
        Outcome.Pending later = assertInstanceOf(Outcome.Pending.class, payments.execute(accepted));
        assertEquals(Duration.ofMillis(1800), later.retryAfter());
        assertEquals(0, control.effects("yookassa", accepted.downstreamKey()).size());
    }

    @Test
    void classifiesErrorsByWhatTheyProve() {
        Attempt limited = payment(1, 1_000);
        control.armStatus("yookassa", limited.downstreamKey(), 429, 1);
        assertInstanceOf(Outcome.Transient.class, payments.execute(limited));

        Attempt failing = payment(1, 1_000);
        control.armStatus("yookassa", failing.downstreamKey(), 500, 1);
        assertEquals("target_http_500", assertInstanceOf(Outcome.Unknown.class, payments.execute(failing)).errorCode());

        Attempt reset = payment(1, 1_000);
        control.arm("yookassa", reset.downstreamKey(), "reset_before_commit", 1);
        assertInstanceOf(Outcome.Unknown.class, payments.execute(reset)); // sent, unanswered: may have run

        Outcome.Rejected unauthorized = assertInstanceOf(Outcome.Rejected.class,
                new YooKassaPayments(settings("wrong-secret")).execute(payment(1, 1_000)));
        assertEquals("target_auth_failed", unauthorized.errorCode());
        assertTrue(!unauthorized.detail().contains("wrong-secret"));
    }

    @Test
    void refundsAPaymentAndFindsTheRefundAmongThePaymentsRefundsByMetadata() {
        String paymentId = ((Outcome.Succeeded) payments.execute(payment(1, 100_000))).objectId();
        Attempt refund = refund(1, paymentId, 30_000);
        Outcome.Succeeded refunded = assertInstanceOf(Outcome.Succeeded.class, payments.execute(refund));
        assertEquals(paymentId, refunded.result().getString("payment_id"));
        payments.execute(refund(1, paymentId, 10_000)); // another refund of the same payment, another key
        assertEquals(refunded.objectId(), assertInstanceOf(Lookup.Found.class, payments.lookup(refund)).objectId());
    }

    /**
     * What a process's compensation of a payment sends: a refund built only from the stored outcome of the
     * succeeded payment.create — its target object id and its result's amount — through the catalog.
     */
    @Test
    void refundsAPaymentInFullFromTheStoredResultOfItsCreation() {
        Outcome.Succeeded paid = assertInstanceOf(Outcome.Succeeded.class, payments.execute(payment(1, 123_456)));
        JsonObject amount = paid.result().getJsonObject("amount");
        long minor = new BigDecimal(amount.getString("value")).movePointRight(2).longValueExact();
        JsonObject payload = Canonicalizer.canonicalize(new AgentCommand("payment.refund", "yookassa", Json.createObjectBuilder()
                .add("payment_id", paid.objectId()).add("amount_minor", minor).add("currency", amount.getString("currency"))
                .add("reason", "Компенсация процесса").build())).payload();
        Attempt refund = new Attempt("acme/test:payment.refund:" + UUID.randomUUID() + ":v1", "payment.refund", 1, payload,
                Instant.now(), null, null);
        control.arm("yookassa", refund.downstreamKey(), "drop_response_after_commit", 1);
        assertInstanceOf(Outcome.Unknown.class, payments.execute(refund));
        Lookup.Found found = assertInstanceOf(Lookup.Found.class, payments.lookup(refund));
        assertEquals(paid.objectId(), found.result().getString("payment_id"));
        assertEquals(amount, found.result().getJsonObject("amount"), "the whole payment");
        Outcome.Succeeded again = assertInstanceOf(Outcome.Succeeded.class, payments.execute(attempt(refund, 2)));
        assertEquals(found.objectId(), again.objectId(), "the same refund, not a second one");
        assertEquals(List.of(found.objectId()), control.effects("yookassa", refund.downstreamKey()));
    }

    @Test
    void checksTheRefundableAmountAgainBeforeALaterAttempt() {
        String paymentId = ((Outcome.Succeeded) payments.execute(payment(1, 100_000))).objectId();
        payments.execute(refund(1, paymentId, 80_000));
        Attempt second = refund(2, paymentId, 50_000); // attempt 2 of an operation whose attempt 1 made nothing
        Outcome.Rejected uncovered = assertInstanceOf(Outcome.Rejected.class, payments.execute(second));
        assertEquals("refund_not_covered", uncovered.errorCode());
        assertEquals(0, control.effects("yookassa", second.downstreamKey()).size());
    }

    @Test
    void adoptsARefundAnEarlierAttemptMadeInsteadOfRefundingAgain() {
        String paymentId = ((Outcome.Succeeded) payments.execute(payment(1, 100_000))).objectId();
        Attempt first = refund(1, paymentId, 40_000);
        control.arm("yookassa", first.downstreamKey(), "drop_response_after_commit", 1);
        assertInstanceOf(Outcome.Unknown.class, payments.execute(first));
        Outcome.Succeeded adopted = assertInstanceOf(Outcome.Succeeded.class, payments.execute(attempt(first, 2)));
        assertEquals(List.of(adopted.objectId()), control.effects("yookassa", first.downstreamKey()));
    }

    @Test
    void reportsTwoRefundsCarryingOneKeyAsAmbiguous() {
        String paymentId = ((Outcome.Succeeded) payments.execute(payment(1, 100_000))).objectId();
        Attempt refund = refund(1, paymentId, 10_000);
        control.arm("yookassa", refund.downstreamKey(), "duplicate", 1);
        payments.execute(refund);
        assertEquals(2, assertInstanceOf(Lookup.Ambiguous.class, payments.lookup(refund)).objectIds().size());
    }

    @Test
    void refusesABadRequestForGoodWithoutEchoingIt() {
        Outcome.Rejected rejected = assertInstanceOf(Outcome.Rejected.class, payments.execute(refund(1, "no-such-payment", 100)));
        assertEquals(400, rejected.httpStatus());
        assertTrue(rejected.detail().contains("payment_id"), rejected.detail());
    }

    @Test
    void saysWhatASucceededPaymentCoversBeforeAnyRefund() {
        String paymentId = ((Outcome.Succeeded) payments.execute(payment(1, 150_000))).objectId();
        PaymentCoverage.Coverage coverage = payments.coverage(paymentId).orElseThrow();
        assertEquals(paymentId, coverage.paymentId());
        assertEquals("succeeded", coverage.status());
        assertEquals(new BigDecimal("1500.00"), coverage.paid());
        assertEquals(0, coverage.refunded().signum());
        assertEquals(new BigDecimal("1500.00"), coverage.remaining());
        assertEquals("RUB", coverage.currency());
    }

    @Test
    void countsEveryRefundAgainstWhatThePaymentCovers() {
        String paymentId = ((Outcome.Succeeded) payments.execute(payment(1, 100_000))).objectId();
        payments.execute(refund(1, paymentId, 30_000));
        assertEquals(new BigDecimal("300.00"), payments.coverage(paymentId).orElseThrow().refunded());
        payments.execute(refund(1, paymentId, 25_050));
        PaymentCoverage.Coverage after = payments.coverage(paymentId).orElseThrow();
        assertEquals(new BigDecimal("550.50"), after.refunded());
        assertEquals(new BigDecimal("449.50"), after.remaining());
    }

    @Test
    void saysAPaymentStillPendingIsPending() {
        Attempt dispatch = payment(1, 20_000);
        control.armPending("yookassa", dispatch.downstreamKey(), 60_000);
        Outcome.Pending pending = assertInstanceOf(Outcome.Pending.class, payments.execute(dispatch));
        assertEquals("pending", payments.coverage(pending.objectId()).orElseThrow().status(), "an approver sees it cannot be refunded yet");
    }

    @Test
    void knowsNoPaymentTheProviderDoesNotKnow() {
        assertEquals(Optional.empty(), payments.coverage(UUID.randomUUID().toString()));
        assertEquals(Optional.empty(), payments.coverage("no such/payment?id=1"), "an id is one path segment, whatever it holds");
    }

    @Test
    void cannotSayWhenTheProviderAnswersAServerError() {
        String paymentId = ((Outcome.Succeeded) payments.execute(payment(1, 10_000))).objectId();
        control.armStatus("yookassa", paymentId, "GET", 500, 1);
        TargetUnanswered unanswered = assertThrows(TargetUnanswered.class, () -> payments.coverage(paymentId));
        assertEquals("yookassa answered 500", unanswered.getMessage());
        assertTrue(payments.coverage(paymentId).isPresent(), "the next question is answered again");
    }

    @Test
    void cannotSayWhenTheConnectionDropsOrTheAnswerHasTheWrongShape() {
        String paymentId = ((Outcome.Succeeded) payments.execute(payment(1, 10_000))).objectId();
        // twice: the JDK's client sends a GET again by itself once when a pooled connection closes before an answer
        control.arm("yookassa", paymentId, "GET", "reset_before_commit", 2, 0);
        assertEquals("yookassa did not answer", assertThrows(TargetUnanswered.class, () -> payments.coverage(paymentId)).getMessage());
        control.arm("yookassa", paymentId, "GET", "wrong_shape", 1, 0);
        assertThrows(TargetUnanswered.class, () -> payments.coverage(paymentId));
    }

    @Test
    void cannotSayWhenTheProviderRefusesOurCredentials() {
        String paymentId = ((Outcome.Succeeded) payments.execute(payment(1, 10_000))).objectId();
        TargetUnanswered unanswered = assertThrows(TargetUnanswered.class,
                () -> new YooKassaPayments(settings("wrong-secret")).coverage(paymentId));
        assertEquals("yookassa answered 401", unanswered.getMessage());
        assertFalse(unanswered.getMessage().contains("wrong-secret"));
    }

    @Test
    void cannotSayWhenTheProviderIsDown() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort(); // free now, and nobody listens once it is closed
        }
        YooKassaSettings down = new YooKassaSettings(URI.create("http://127.0.0.1:" + closed + "/yookassa/v3/"), Simulators.YOOKASSA_SHOP_ID,
                Simulators.YOOKASSA_SECRET_KEY, Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofHours(23), null,
                TlsSettings.from(name -> Optional.empty(), "yookassa"));
        assertEquals("yookassa did not answer", assertThrows(TargetUnanswered.class,
                () -> new YooKassaPayments(down).coverage(UUID.randomUUID().toString())).getMessage());
    }

    private static Attempt payment(int attempt, long amountMinor) {
        return new Attempt("acme/test:payment.create:" + UUID.randomUUID() + ":v1", "payment.create", attempt,
                Json.createObjectBuilder().add("order_id", "order-1").add("amount_minor", amountMinor).add("currency", "RUB")
                        .add("description", "Заказ 1").build(), Instant.now(), null, "0af7651916cd43dd8448eb211c80319c");
    }

    private static Attempt refund(int attempt, String paymentId, long amountMinor) {
        return new Attempt("acme/test:payment.refund:" + UUID.randomUUID() + ":v1", "payment.refund", attempt,
                Json.createObjectBuilder().add("payment_id", paymentId).add("amount_minor", amountMinor).add("currency", "RUB")
                        .add("reason", "Возврат").build(), Instant.now(), null, null);
    }

    private static Attempt captured(Attempt d, Instant at) {
        return new Attempt(d.downstreamKey(), d.operation(), d.attempt(), d.payload(), at, d.objectId(), d.traceId());
    }

    private static Attempt attempt(Attempt d, int attempt) {
        return new Attempt(d.downstreamKey(), d.operation(), attempt, d.payload(), d.createdAt(), d.objectId(), d.traceId());
    }

    private static YooKassaSettings settings(String secret) {
        return new YooKassaSettings(URI.create(simulators.yooKassaUrl()), Simulators.YOOKASSA_SHOP_ID, secret,
                Duration.ofSeconds(2), Duration.ofSeconds(3), Duration.ofHours(23), null,
                SimulatorTrust.of(simulators, "yookassa"));
    }
}

package dev.toolgate.canonical;

import static dev.toolgate.canonical.FieldSpec.optional;
import static dev.toolgate.canonical.FieldSpec.required;
import static dev.toolgate.canonical.FieldSpec.sensitive;
import static dev.toolgate.canonical.FieldType.CURRENCY;
import static dev.toolgate.canonical.FieldType.FLAG;
import static dev.toolgate.canonical.FieldType.GUID;
import static dev.toolgate.canonical.FieldType.INN;
import static dev.toolgate.canonical.FieldType.MINOR_AMOUNT;
import static dev.toolgate.canonical.FieldType.NUMERIC_ID;
import static dev.toolgate.canonical.FieldType.TEXT;
import static dev.toolgate.canonical.FieldType.TIMESTAMP;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

public final class OperationCatalog {

    /** Describe the delivery, not the intent: ignored, so a retry with a new attempt number or trace id is the same request. */
    public static final Set<String> TRANSPORT_FIELDS =
            Set.of("attempt", "attempt_number", "sent_at", "trace_id", "span_id", "traceparent");

    private static final Map<String, OperationSpec> V1 = List.of(
            new OperationSpec("invoice.create", "1c", List.of(
                    required("order_id", TEXT), required("amount_minor", MINOR_AMOUNT), required("currency", CURRENCY),
                    // a 12-digit INN identifies a person: personal data (152-FZ), so it is never stored
                    sensitive("counterparty_inn", INN), optional("due_at", TIMESTAMP),
                    // post: also posted after the create, in the same operation; invoice.post is the keyed way
                    optional("post", FLAG)), false),
            // posts (проводит) an existing invoice; looked up by its Posted flag
            new OperationSpec("invoice.post", "1c", List.of(required("invoice_id", GUID)), false),
            // the compensation of an invoice: the status "cancelled" in 1C, never a deletion or a deletion mark
            new OperationSpec("invoice.cancel", "1c", List.of(
                    required("invoice_id", GUID), required("reason", TEXT, 250)), false),
            new OperationSpec("crm.deal.create", "bitrix24", List.of(
                    required("title", TEXT, 255), required("amount_minor", MINOR_AMOUNT), required("currency", CURRENCY),
                    optional("contact_id", TEXT)), false),
            // the compensation of a deal: moved to the lost stage, never deleted; the reason goes into its comments
            new OperationSpec("crm.deal.lose", "bitrix24", List.of(
                    required("deal_id", NUMERIC_ID, 18), optional("reason", TEXT, 250)), false),
            new OperationSpec("payment.create", "yookassa", List.of(
                    required("order_id", TEXT), required("amount_minor", MINOR_AMOUNT), required("currency", CURRENCY),
                    required("description", TEXT, 128)), true), // YooKassa's limit
            new OperationSpec("payment.refund", "yookassa", List.of(
                    required("payment_id", TEXT), required("amount_minor", MINOR_AMOUNT), required("currency", CURRENCY),
                    required("reason", TEXT, 250)), true)
    ).stream().collect(Collectors.toUnmodifiableMap(OperationSpec::operation, Function.identity()));

    private OperationCatalog() {
    }

    public static Set<String> targets() {
        return V1.values().stream().map(OperationSpec::target).collect(Collectors.toUnmodifiableSet());
    }

    public static List<OperationSpec> operations() {
        return V1.values().stream().sorted(java.util.Comparator.comparing(OperationSpec::operation)).toList();
    }

    public static Optional<OperationSpec> find(String operation) {
        return Optional.ofNullable(V1.get(operation));
    }
}

/**
 * 1C:Enterprise accounting through the standard OData interface (docs/targets.md).
 *
 * <p>OData has no idempotency header, so our operation key is written into an extension requisite
 * of the document and found again with {@code $filter}. The filter and the POST are separate calls,
 * so the gateway's lease is what keeps two creates from racing; the look-up settles the rest.
 *
 * <p>The operations on an existing invoice name it by its {@code Ref_Key}, and its state is the evidence:
 * {@code invoice.post} is looked up by the document's {@code Posted} flag, {@code invoice.cancel} by the
 * invoice's record in the document status register.
 */
package dev.toolgate.targets.onec;

/** One key, one effect: the first outcome replayed, a reused key refused, racing callers given one owner. */
package dev.toolgate.it.idempotency;

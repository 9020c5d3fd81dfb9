/** Transient refusals retried within the call, with back-off, up to a budget; a final verdict replayed. */
package dev.toolgate.it.retries;

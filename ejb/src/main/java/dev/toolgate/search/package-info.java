/**
 * The read model people and agents look at: one operation's whole story with its approval
 * ({@link dev.toolgate.search.OperationRecords}), the console's search over many
 * ({@link dev.toolgate.search.OperationSearch}, paged by {@link dev.toolgate.search.Cursor}), where an
 * operation stands in words ({@link dev.toolgate.search.Standing}), and the backlog operators watch
 * ({@link dev.toolgate.search.Backlog}). It only reads; it imports {@code journal} and {@code approval}, and
 * nothing below it imports it.
 */
package dev.toolgate.search;

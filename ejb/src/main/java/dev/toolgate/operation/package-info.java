/**
 * What an operation is, in the words every layer uses: its snapshot as read
 * ({@link dev.toolgate.operation.OperationView}), its states ({@link dev.toolgate.operation.OperationStatus}), the
 * kinds of the events of its story and an event as it is shown ({@link dev.toolgate.operation.EventKind},
 * {@link dev.toolgate.operation.EventView}), and a request about it that was refused with nothing changed
 * ({@link dev.toolgate.operation.OperationRefused}). Values only, no behaviour of the lifecycle's or the storage's:
 * the journal stores and maps them, the lifecycle decides on them, the approval, escalation and process capabilities
 * refuse requests with them, and the front doors show them — without reaching into storage to name them. It imports
 * nothing of ours.
 */
package dev.toolgate.operation;

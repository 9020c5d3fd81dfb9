/**
 * Outcomes the targets announce: a YooKassa notification or a Bitrix24 outbound event names an object, and the
 * operation that made it is looked up by its own key at once instead of at the reconcile job's next tick. A
 * notification is a trigger, never evidence: nothing settles on what it says (docs/notifications.md).
 */
package dev.toolgate.notification;

/**
 * The door targets' notifications come in by: {@code POST /notifications/{target}[/{tenant}]}, checked for source
 * and token, answered at once, and handed to {@code notification.Notices} for the look-up (docs/notifications.md).
 */
package dev.toolgate.gateway.notifications;

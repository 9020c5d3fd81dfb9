/**
 * Simulators of the business systems Toolgate talks to, for tests and the local demo. Each answers
 * as the real system documents (the vendor references are in docs/targets.md) and knows nothing of the gateway.
 * A shared control API ({@code /_control/…}) arms faults and counts business effects. YooKassa and Bitrix24 also
 * send the notifications their vendors send, to the URLs subscribed through their own APIs ({@link
 * dev.toolgate.simulator.Notifications}), with faults of their own.
 */
package dev.toolgate.simulator;

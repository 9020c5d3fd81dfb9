/** One agent's operation taken over by another: an approved refund whose response was lost, resumed by agent B. */
package dev.toolgate.it.handover;

/** Secrets and personal data kept out of the journals and the logs; card numbers refused at the door. */
package dev.toolgate.it.secrets;

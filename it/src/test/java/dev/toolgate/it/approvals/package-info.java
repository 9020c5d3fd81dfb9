/** Operations that wait for a person: granted for the fingerprint the approver saw, revoked, refused to agents. */
package dev.toolgate.it.approvals;

/**
 * An agent's command: the operation's loop ({@link dev.toolgate.lifecycle.OperationLoop}) as a tool execution, the one
 * table from the row it leaves to the agent's answer ({@link dev.toolgate.gateway.AgentAnswers}), and whether the
 * journal lets this instance take commands ({@link dev.toolgate.gateway.Readiness}). No database transaction is open
 * while a target is called; only what the journal recorded is sent, and an operation whose outcome is unknown is looked
 * up by our key before anything is sent again. It imports the lifecycle; the front doors and the process driver import it.
 */
package dev.toolgate.gateway;

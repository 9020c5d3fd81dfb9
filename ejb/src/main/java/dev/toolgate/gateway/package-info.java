/**
 * An agent's command: the operation's one loop ({@link dev.toolgate.lifecycle.OperationLoop}), from its capture, as a
 * tool execution, and the one table from the row it left to the agent's answer ({@link dev.toolgate.gateway.AgentAnswers});
 * and whether the journal lets this instance take commands at all ({@link dev.toolgate.gateway.Readiness}).
 *
 * <p>{@link dev.toolgate.gateway.CommandGateway} opens no transaction and the loop it calls suspends any: each journal
 * phase commits on its own and no database transaction is open while a target is called.
 * It sends only what the journal recorded, and an operation whose outcome is unknown is looked up
 * by our key before anything is sent again. It imports the lifecycle and what it stands on; the front
 * doors and the process driver import it.
 */
package dev.toolgate.gateway;

/**
 * The dispatch loop between an agent's command and the target: capture, call, record.
 *
 * <p>{@link dev.toolgate.gateway.CommandGateway} is {@code NOT_SUPPORTED}: each journal phase
 * commits on its own and no database transaction is open while a target is called.
 * It sends only what the journal recorded, and an operation whose outcome is unknown is looked up
 * by our key before anything is sent again.
 */
package dev.toolgate.gateway;

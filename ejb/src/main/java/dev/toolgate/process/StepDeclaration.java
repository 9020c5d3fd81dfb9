package dev.toolgate.process;

/** One step of a process type: the operation it is, how its payload is built, and what compensates it. */
public record StepDeclaration(String name, String operation, String target, StepTemplate payload, Compensation compensation) {
}

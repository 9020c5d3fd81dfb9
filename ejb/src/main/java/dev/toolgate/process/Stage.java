package dev.toolgate.process;

/** A step, or a step's compensation, as one operation under its own key. */
public record Stage(String key, StepDeclaration step, boolean compensation) {

    static Stage forward(String processKey, StepDeclaration step) {
        return new Stage(ProcessType.stepKey(processKey, step.name()), step, false);
    }

    static Stage compensation(String processKey, StepDeclaration step) {
        return new Stage(ProcessType.compensationKey(processKey, step.name()), step, true);
    }

    public String operation() {
        return compensation ? ((Compensation.Undo) step.compensation()).operation() : step.operation();
    }

    public String target() {
        return compensation ? ((Compensation.Undo) step.compensation()).target() : step.target();
    }

    StepTemplate template() {
        return compensation ? ((Compensation.Undo) step.compensation()).payload() : step.payload();
    }

    String describe() {
        return (compensation ? "the compensation of step '" : "step '") + step.name() + "' (" + operation() + ")";
    }
}

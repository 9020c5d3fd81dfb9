package dev.toolgate.process;

import dev.toolgate.journal.Journal;
import dev.toolgate.operation.OperationView;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What a person or agent reads of a process; never moves it, so an answer says the same whoever moved the process. */
@ApplicationScoped
public class ProcessRecords {

    @Inject
    ProcessCatalog catalog;
    @Inject
    ProcessJournal processes;
    @Inject
    Journal journal;

    /** By the declaration the process recorded; with no steps when this instance cannot read that declaration. */
    public ProcessRecord of(ProcessView process) {
        return of(process, recorded(process));
    }

    public ProcessRecord of(ProcessView process, ProcessType type) {
        if (type == null) {
            return new ProcessRecord(process, List.of(), processes.events(process.tenant(), process.key()));
        }
        Map<String, OperationView> operations = journal.several(process.tenant(), type.stageKeys(process.key()));
        List<ProcessRecord.StepRecord> steps = new ArrayList<>();
        for (StepDeclaration step : type.steps()) {
            String key = ProcessType.stepKey(process.key(), step.name());
            String compensation = step.compensation() instanceof Compensation.Undo ? ProcessType.compensationKey(process.key(), step.name()) : null;
            steps.add(new ProcessRecord.StepRecord(step, key, operations.get(key), compensation,
                    compensation == null ? null : operations.get(compensation)));
        }
        return new ProcessRecord(process, steps, processes.events(process.tenant(), process.key()));
    }

    private ProcessType recorded(ProcessView process) {
        try {
            return catalog.recorded(process.declaration());
        } catch (InvalidDeclaration e) {
            return null;
        }
    }
}

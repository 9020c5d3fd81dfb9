package dev.toolgate.canonical;

import java.util.List;

/** What one operation type accepts: its target system and significant fields. */
public record OperationSpec(String operation, String target, List<FieldSpec> fields, boolean approvalRequired) {
}

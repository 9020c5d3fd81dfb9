package dev.toolgate.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolgate.access.Caller;
import dev.toolgate.access.Role;
import dev.toolgate.canonical.FieldSpec;
import dev.toolgate.canonical.OperationCatalog;
import dev.toolgate.canonical.OperationSpec;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import dev.toolgate.process.ProcessDeclarations;
import dev.toolgate.process.ProcessType;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import java.util.List;
import java.util.Set;

class ToolCatalogTest {

    private static List<String> names(Role... roles) {
        return ToolCatalog.visibleTo(new Caller("p", "acme", Set.of(roles))).stream().map(Tool::name).toList();
    }

    private static JsonObject definition(String name) {
        return ToolCatalog.find(name).orElseThrow().definition();
    }

    @Test
    void offersOneToolPerCatalogOperationAndTheEvidenceToolsToAnAgent() {
        assertEquals(List.of("crm_deal_create", "crm_deal_lose", "invoice_cancel", "invoice_create", "invoice_post",
                "payment_create", "payment_refund", "get_operation", "list_open_operations", "resume_operation", "get_process", "resume_process"),
                names(Role.AGENT));
    }

    @Test
    void limitsAnOperatorToTheEvidenceTools() {
        assertEquals(List.of("get_operation", "list_open_operations", "resume_operation", "get_process", "resume_process"), names(Role.OPERATOR));
    }

    @Test
    void limitsAnAuditorToReading() {
        assertEquals(List.of("get_operation", "list_open_operations", "get_process"), names(Role.AUDITOR));
    }

    @Test
    void offersAnAdminNothing() {
        assertEquals(List.of(), names(Role.ADMIN));
    }

    @Test
    void offersOneToolPerProcessTypeToAnAgentOnlyWithTheProcesssInputAsItsArguments() throws Exception {
        List<ProcessType> types;
        try (InputStream examples = ProcessType.class.getClassLoader().getResourceAsStream("META-INF/toolgate/processes.json")) {
            types = ProcessDeclarations.parse(new String(examples.readAllBytes(), StandardCharsets.UTF_8));
        }
        List<Tool> tools = ToolCatalog.processes(types);
        assertEquals(List.of("process_order_fulfil", "process_order_prepay"), tools.stream().map(Tool::name).toList());
        Tool fulfil = tools.get(0);
        assertTrue(fulfil.callableBy(new Caller("a", "acme", Set.of(Role.AGENT))));
        assertFalse(fulfil.callableBy(new Caller("o", "acme", Set.of(Role.OPERATOR))), "an operator resumes, never starts");
        JsonObject schema = fulfil.definition().getJsonObject("inputSchema");
        assertEquals(List.of("amount_minor", "currency", ToolSchemas.KEY, "order_id"),
                schema.getJsonArray("required").getValuesAs(JsonString.class).stream().map(JsonString::getString).sorted().toList());
        assertTrue(schema.getJsonObject("properties").containsKey("due_at"));
        String description = fulfil.definition().getString("description");
        assertTrue(description.contains("invoice.create → invoice.post → crm.deal.create → payment.create"), description);
        assertTrue(fulfil.definition().getJsonObject("annotations").getBoolean("destructiveHint"));
    }

    @Test
    void generatesEachInputSchemaFromTheFieldSpecsTheGatewayValidatesWith() {
        for (OperationSpec spec : OperationCatalog.operations()) {
            JsonObject schema = definition(ToolCatalog.toolName(spec.operation())).getJsonObject("inputSchema");
            JsonObject properties = schema.getJsonObject("properties");
            assertEquals(spec.fields().size() + 1, properties.size(), spec.operation());
            List<String> required = schema.getJsonArray("required").getValuesAs(JsonString.class).stream().map(JsonString::getString).toList();
            assertTrue(required.contains(ToolSchemas.KEY));
            for (FieldSpec field : spec.fields()) {
                assertEquals(field.required(), required.contains(field.name()), field.name());
                assertEquals(ToolSchemas.jsonType(field.type()), properties.getJsonObject(field.name()).getString("type"), field.name());
            }
            assertFalse(schema.getBoolean("additionalProperties"));
        }
    }

    @Test
    void describesMoneyInMinorUnitsWithTheGatewaysBounds() {
        JsonObject amount = definition("invoice_create").getJsonObject("inputSchema").getJsonObject("properties").getJsonObject("amount_minor");
        assertEquals("integer", amount.getString("type"));
        assertEquals(1, amount.getInt("minimum"));
        assertEquals(999_999_999_999_999L, amount.getJsonNumber("maximum").longValueExact());
    }

    @Test
    void tellsTheAgentHowToFormAndReuseTheKey() {
        String description = definition("payment_create").getString("description");
        assertTrue(description.contains("<contour>:payment.create:<intent-id>:<version>"), description);
        assertTrue(description.contains("same key"), description);
        assertTrue(description.contains("approve"), description);
    }

    @Test
    void marksMoneyAndDocumentsDestructiveAndEveryToolIdempotent() {
        assertTrue(definition("invoice_create").getJsonObject("annotations").getBoolean("destructiveHint"));
        assertTrue(definition("payment_refund").getJsonObject("annotations").getBoolean("destructiveHint"));
        assertFalse(definition("crm_deal_create").getJsonObject("annotations").getBoolean("destructiveHint"));
        ToolCatalog.ALL.forEach(t -> assertTrue(t.definition().getJsonObject("annotations").getBoolean("idempotentHint"), t.name()));
        assertTrue(definition("invoice_create").getJsonObject("annotations").getBoolean("openWorldHint"));
        assertTrue(definition("get_operation").getJsonObject("annotations").getBoolean("readOnlyHint"));
    }

    @Test
    void declaresAnOutputSchemaForEveryTool() {
        ToolCatalog.ALL.forEach(t -> assertEquals("object", t.definition().getJsonObject("outputSchema").getString("type"), t.name()));
    }

    @Test
    void namesToolsWithCharactersEveryClientAccepts() {
        ToolCatalog.ALL.forEach(t -> assertTrue(t.name().matches("[A-Za-z0-9_-]{1,64}"), t.name()));
    }
}

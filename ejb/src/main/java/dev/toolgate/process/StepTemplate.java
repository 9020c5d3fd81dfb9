package dev.toolgate.process;

import static dev.toolgate.canonical.Jsons.JSON;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A step's payload template: string values may refer to {@code ${input.x}}, {@code ${steps.s.object_id}} or
 * {@code ${steps.s.result.x}}. A value that is exactly one reference takes the value as it is (an absent optional
 * input leaves the field out); inside text, its text. Built only from recorded facts, so building it again gives the
 * same fingerprint: a replay, never a second effect.
 */
public final class StepTemplate {

    private static final Pattern REFERENCE = Pattern.compile("\\$\\{([^}]*)}");

    private final JsonObject template;

    private StepTemplate(JsonObject template) {
        this.template = template;
    }

    static StepTemplate of(JsonObject template) {
        StepTemplate parsed = new StepTemplate(template);
        parsed.references(); // parses every reference once: a broken one is a broken declaration
        return parsed;
    }

    List<String> fields() {
        return List.copyOf(template.keySet());
    }

    List<Use> references() {
        List<Use> uses = new ArrayList<>();
        template.forEach((field, value) -> collect(field, value, uses));
        return uses;
    }

    /** The payload, every reference resolved by {@code values} (null: absent). */
    JsonObject build(Function<Reference, JsonValue> values) {
        return (JsonObject) resolve(template, values);
    }

    private static void collect(String field, JsonValue value, List<Use> uses) {
        if (value instanceof JsonString text) {
            String s = text.getString();
            Matcher m = REFERENCE.matcher(s);
            while (m.find()) {
                boolean whole = m.start() == 0 && m.end() == s.length();
                uses.add(new Use(field, Reference.parse(field, m.group(1)), whole));
            }
        } else if (value instanceof JsonObject object) {
            object.values().forEach(v -> collect(field, v, uses));
        } else if (value instanceof JsonArray array) {
            array.forEach(v -> collect(field, v, uses));
        }
    }

    private static JsonValue resolve(JsonValue value, Function<Reference, JsonValue> values) {
        if (value instanceof JsonObject object) {
            JsonObjectBuilder built = JSON.createObjectBuilder();
            object.forEach((field, v) -> {
                JsonValue resolved = resolve(v, values);
                if (resolved != null) {
                    built.add(field, resolved);
                }
            });
            return built.build();
        }
        if (value instanceof JsonArray array) {
            JsonArrayBuilder built = JSON.createArrayBuilder();
            array.forEach(v -> {
                JsonValue resolved = resolve(v, values);
                built.add(resolved == null ? JsonValue.NULL : resolved);
            });
            return built.build();
        }
        if (!(value instanceof JsonString text)) {
            return value;
        }
        String s = text.getString();
        Matcher m = REFERENCE.matcher(s);
        if (m.matches()) {
            return values.apply(Reference.parse("", m.group(1))); // null: an absent optional input, left out
        }
        StringBuilder out = new StringBuilder();
        m.reset();
        while (m.find()) {
            Reference reference = Reference.parse("", m.group(1));
            JsonValue referred = values.apply(reference);
            if (referred == null || referred == JsonValue.NULL) {
                throw new MissingValue(reference);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(
                    referred instanceof JsonString string ? string.getString() : referred.toString()));
        }
        m.appendTail(out);
        return JSON.createValue(out.toString());
    }

    record Use(String field, Reference reference, boolean whole) {
    }

    /** {@code step} is null for an input reference; {@code field} is null for the object id. */
    public record Reference(String step, String field) {

        private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,31}");

        static Reference parse(String where, String text) {
            String[] parts = text.split("\\.", -1);
            if (parts.length == 2 && parts[0].equals("input") && NAME.matcher(parts[1]).matches()) {
                return new Reference(null, parts[1]);
            }
            if (parts.length == 3 && parts[0].equals("steps") && NAME.matcher(parts[1]).matches() && parts[2].equals("object_id")) {
                return new Reference(parts[1], null);
            }
            if (parts.length == 4 && parts[0].equals("steps") && NAME.matcher(parts[1]).matches() && parts[2].equals("result")
                    && NAME.matcher(parts[3]).matches()) {
                return new Reference(parts[1], parts[3]);
            }
            throw new InvalidDeclaration("'" + where + "' refers to ${" + text + "}: a reference is ${input.<field>},"
                    + " ${steps.<step>.object_id} or ${steps.<step>.result.<field>}");
        }

        boolean toInput() {
            return step == null;
        }

        @Override
        public String toString() {
            return "${" + (step == null ? "input." + field : "steps." + step + (field == null ? ".object_id" : ".result." + field)) + "}";
        }
    }

    /** A reference with nothing behind it when the payload is built: the process cannot go on by itself. */
    public static final class MissingValue extends RuntimeException {
        private final transient Reference reference;

        MissingValue(Reference reference) {
            super(reference + " has no value");
            this.reference = reference;
        }

        public Reference reference() {
            return reference;
        }
    }
}

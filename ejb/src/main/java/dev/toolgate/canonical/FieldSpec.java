package dev.toolgate.canonical;

/** One significant payload field of an operation. */
public record FieldSpec(String name, FieldType type, boolean required, int maxLength) {

    static FieldSpec required(String name, FieldType type) {
        return new FieldSpec(name, type, true, 128);
    }

    static FieldSpec required(String name, FieldType type, int maxLength) {
        return new FieldSpec(name, type, true, maxLength);
    }

    static FieldSpec optional(String name, FieldType type) {
        return new FieldSpec(name, type, false, 128);
    }
}

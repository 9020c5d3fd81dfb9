package dev.toolgate.canonical;

/**
 * One significant payload field of an operation. A {@code sensitive} field (personal data) is
 * covered by the fingerprint but never stored: the journal keeps only that it was sent.
 */
public record FieldSpec(String name, FieldType type, boolean required, int maxLength, boolean sensitive) {

    static FieldSpec required(String name, FieldType type) {
        return new FieldSpec(name, type, true, 128, false);
    }

    static FieldSpec required(String name, FieldType type, int maxLength) {
        return new FieldSpec(name, type, true, maxLength, false);
    }

    static FieldSpec optional(String name, FieldType type) {
        return new FieldSpec(name, type, false, 128, false);
    }

    static FieldSpec optional(String name, FieldType type, int maxLength) {
        return new FieldSpec(name, type, false, maxLength, false);
    }

    static FieldSpec sensitive(String name, FieldType type) {
        return new FieldSpec(name, type, false, 128, true);
    }
}

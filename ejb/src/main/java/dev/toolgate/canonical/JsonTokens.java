package dev.toolgate.canonical;

import static dev.toolgate.canonical.InvalidCommand.Reason.MALFORMED_JSON;

abstract class JsonTokens {

    final String text;
    int at;

    JsonTokens(String text) {
        this.text = text;
    }

    /** The string starting at the opening quote, unescaped; only Unicode scalar values pass (RFC 7493 §2.1). */
    String string() {
        StringBuilder out = new StringBuilder();
        at++;
        while (true) {
            if (at >= text.length()) {
                throw malformed("an unterminated string");
            }
            char c = text.charAt(at++);
            if (c == '"') {
                return IJsonRules.scalarValues(out.toString());
            }
            if (c < 0x20) {
                throw malformed("a control character inside a string must be escaped");
            }
            out.append(c == '\\' ? escape() : c);
        }
    }

    private char escape() {
        if (at >= text.length()) {
            throw malformed("an unterminated escape");
        }
        char c = text.charAt(at++);
        switch (c) {
            case '"', '\\', '/' -> { return c; }
            case 'b' -> { return '\b'; }
            case 'f' -> { return '\f'; }
            case 'n' -> { return '\n'; }
            case 'r' -> { return '\r'; }
            case 't' -> { return '\t'; }
            case 'u' -> { return hex4(); }
            default -> throw malformed("an unknown escape");
        }
    }

    private char hex4() {
        if (at + 4 > text.length()) {
            throw malformed("a \\u escape needs four hex digits");
        }
        int code = 0;
        for (int i = 0; i < 4; i++) {
            int digit = Character.digit(text.charAt(at++), 16);
            if (digit < 0 || text.charAt(at - 1) > 'f') { // Character.digit also takes fullwidth digits
                throw malformed("a \\u escape needs four hex digits");
            }
            code = code * 16 + digit;
        }
        return (char) code;
    }

    void digits() {
        int start = at;
        while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
            at++;
        }
        if (at == start) {
            throw malformed("a number needs digits");
        }
    }

    void expect(char c) {
        if (!next(c)) {
            throw malformed("expected '" + c + "'");
        }
    }

    boolean next(char c) {
        whitespace();
        return take(c);
    }

    /** Consumes {@code c} if it is the very next character: inside a number, whitespace ends it. */
    boolean take(char c) {
        if (at < text.length() && text.charAt(at) == c) {
            at++;
            return true;
        }
        return false;
    }

    void whitespace() {
        while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
    }

    InvalidCommand unexpected() {
        return malformed("an unexpected character");
    }

    /** Positions only, never the text: the body may carry anything. */
    InvalidCommand malformed(String what) {
        return new InvalidCommand(MALFORMED_JSON, "the request body is not valid JSON: " + what + " at offset " + at);
    }
}

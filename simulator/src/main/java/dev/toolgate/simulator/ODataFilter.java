package dev.toolgate.simulator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The part of OData's {@code $filter} grammar 1C's standard interface is asked here: {@code <field> eq '<text>'}
 * conditions joined by {@code and} and {@code or} (and binding tighter), grouped by parentheses, quotes doubled inside
 * a text. Read into the alternatives it allows: any one of them, each every one of its conditions.
 */
final class ODataFilter {

    private final List<String> tokens;
    private int at;

    private ODataFilter(List<String> tokens) {
        this.tokens = tokens;
    }

    /** Each alternative a map of field to the text it must equal; null when the filter is not in this grammar. */
    static List<Map<String, String>> alternatives(String filter) {
        List<String> tokens = tokens(filter);
        if (tokens == null || tokens.isEmpty()) {
            return null;
        }
        ODataFilter parser = new ODataFilter(tokens);
        List<Map<String, String>> any = parser.or();
        return any == null || parser.at != tokens.size() ? null : any;
    }

    /** The texts {@code field} must equal in any alternative of {@code filter}: the keys a look-up asks for. */
    static List<String> valuesOf(String field, String filter) {
        List<Map<String, String>> any = filter == null || filter.isBlank() ? null : alternatives(filter);
        if (any == null) {
            return List.of();
        }
        return any.stream().map(all -> all.get(field)).filter(v -> v != null).distinct().toList();
    }

    private List<Map<String, String>> or() {
        List<Map<String, String>> any = and();
        while (any != null && "or".equalsIgnoreCase(peek())) {
            at++;
            List<Map<String, String>> next = and();
            if (next == null) {
                return null;
            }
            any.addAll(next);
        }
        return any;
    }

    /** A conjunction of alternatives: every pairing of theirs (a and (b or c) is a and b, or a and c). */
    private List<Map<String, String>> and() {
        List<Map<String, String>> any = factor();
        while (any != null && "and".equalsIgnoreCase(peek())) {
            at++;
            List<Map<String, String>> next = factor();
            if (next == null) {
                return null;
            }
            List<Map<String, String>> paired = new ArrayList<>();
            for (Map<String, String> left : any) {
                for (Map<String, String> right : next) {
                    Map<String, String> both = new LinkedHashMap<>(left);
                    for (Map.Entry<String, String> condition : right.entrySet()) {
                        if (both.containsKey(condition.getKey()) && !both.get(condition.getKey()).equals(condition.getValue())) {
                            both = null; // a field equal to two texts: this pairing matches nothing
                            break;
                        }
                        both.put(condition.getKey(), condition.getValue());
                    }
                    if (both != null) {
                        paired.add(both);
                    }
                }
            }
            any = paired;
        }
        return any;
    }

    private List<Map<String, String>> factor() {
        String token = peek();
        if ("(".equals(token)) {
            at++;
            List<Map<String, String>> inner = or();
            if (inner == null || !")".equals(peek())) {
                return null;
            }
            at++;
            return inner;
        }
        if (at + 3 > tokens.size()) {
            return null;
        }
        String field = tokens.get(at);
        String operator = tokens.get(at + 1);
        String text = tokens.get(at + 2);
        if (!field.matches("[\\p{L}\\p{N}_]+") || !"eq".equalsIgnoreCase(operator) || !text.startsWith("'")) {
            return null;
        }
        at += 3;
        Map<String, String> condition = new LinkedHashMap<>();
        condition.put(field, text.substring(1));
        List<Map<String, String>> one = new ArrayList<>();
        one.add(condition);
        return one;
    }

    private String peek() {
        return at < tokens.size() ? tokens.get(at) : null;
    }

    /** Words, parentheses and texts (a text's token is a quote and its unquoted content); null for an unclosed text. */
    private static List<String> tokens(String filter) {
        List<String> tokens = new ArrayList<>();
        int i = 0;
        while (i < filter.length()) {
            char c = filter.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '(' || c == ')') {
                tokens.add(String.valueOf(c));
                i++;
            } else if (c == '\'') {
                StringBuilder text = new StringBuilder("'");
                i++;
                while (true) {
                    if (i >= filter.length()) {
                        return null;
                    }
                    if (filter.charAt(i) == '\'') {
                        if (i + 1 < filter.length() && filter.charAt(i + 1) == '\'') {
                            text.append('\'');
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    text.append(filter.charAt(i++));
                }
                tokens.add(text.toString());
            } else {
                int start = i;
                while (i < filter.length() && !Character.isWhitespace(filter.charAt(i)) && "()'".indexOf(filter.charAt(i)) < 0) {
                    i++;
                }
                tokens.add(filter.substring(start, i));
            }
        }
        return tokens;
    }
}

package dev.toolgate.checker;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** What the checker found: every broken rule, by key. Clean when there is none. */
public record Verdict(int operations, int answers, List<Violation> violations) {

    public Verdict {
        violations = List.copyOf(violations);
    }

    public boolean clean() {
        return violations.isEmpty();
    }

    public Map<Rule, Long> counts() {
        return violations.stream().collect(Collectors.groupingBy(Violation::rule, TreeMap::new, Collectors.counting()));
    }

    /** One line of figures, then the first violations (at most 20) with their keys: what a failed suite prints. */
    public String report() {
        StringBuilder report = new StringBuilder("checker: " + operations + " operations, " + answers + " answers, "
                + (clean() ? "no violation" : violations.size() + " violations " + counts()));
        violations.stream().limit(20).forEach(v -> report.append("\n  ").append(v));
        return report.toString();
    }

    public record Violation(Rule rule, String key, String detail) {

        @Override
        public String toString() {
            return rule + " " + key + ": " + detail;
        }
    }
}

package hindsight.eclipse.core;

import java.util.List;

/**
 * The buggy call as the verdict reports it (the core's {@code BuggyNode}).
 *
 * @param node the buggy node
 * @param method its method, {@code pkg.Class.method}
 * @param file the source file the class names ({@code MergeSort.java}), or null
 * @param lines the source lines the call executed itself, sorted
 */
public record BugReport(long node, String method, String file, List<Integer> lines) {
    /** {@code lines 10-12} or {@code lines 10, 12, 14}, for messages. */
    public String linesText() {
        if (lines.isEmpty()) {
            return "no line recorded";
        }
        boolean contiguous = lines.get(lines.size() - 1) - lines.get(0) == lines.size() - 1;
        if (lines.size() == 1) {
            return "line " + lines.get(0);
        }
        if (contiguous) {
            return "lines " + lines.get(0) + "-" + lines.get(lines.size() - 1);
        }
        StringBuilder b = new StringBuilder("lines ");
        for (int i = 0; i < lines.size(); i++) {
            b.append(i == 0 ? "" : ", ").append(lines.get(i));
        }
        return b.toString();
    }
}

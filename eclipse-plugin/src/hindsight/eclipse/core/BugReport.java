package hindsight.eclipse.core;

import java.util.List;

/**
 * The buggy node as the verdict reports it (the core's {@code BuggyNode}).
 *
 * @param node the buggy node
 * @param kind what it is: a call, a loop, an iteration, a collapsed or projected node
 * @param method its method, {@code pkg.Class.method} (a loop's: the method it runs in)
 * @param file the source file the class names ({@code MergeSort.java}), or null
 * @param lines the source lines the node executed itself (not its children), sorted
 */
public record BugReport(long node, TreeNode.Kind kind, String method, String file, List<Integer> lines) {
    /** The buggy node in messages: {@code MergeSort.merge}, {@code SumNumbers.sumNumbers (loop iteration)}. */
    public String title() {
        return TreeNode.title(kind, method, method);
    }

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

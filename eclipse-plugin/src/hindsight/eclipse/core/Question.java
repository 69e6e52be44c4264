package hindsight.eclipse.core;

import java.util.List;

/**
 * What the session asks next, or how it ended (the core's {@code NextQuestion}).
 *
 * @param kind what this is
 * @param node the node asked about, or the buggy node; null for the other kinds
 * @param candidates for {@link Kind#UNDECIDED}: the calls that may hold the bug, the region's root first
 * @param answers the answers given so far
 * @param report for an end: the buggy call's method, file and lines, or null
 */
public record Question(Kind kind, TreeNode node, List<TreeNode> candidates, int answers, BugReport report) {
    /** Where the session stands. */
    public enum Kind {
        /** A question about {@code node}. */
        ASK,
        /** {@code node} is the buggy node. */
        BUGGY,
        /** Don't-know answers left several candidates. */
        UNDECIDED,
        /** Every suspicious call was answered valid: no bug the answers can show. */
        NO_BUG,
        /** Nothing to ask yet: the recording goes on. */
        WAITING;

        /** The core's name of the kind ({@code no-bug}, ...). */
        public static Kind of(String name) {
            return valueOf(name.replace('-', '_').toUpperCase(java.util.Locale.ROOT));
        }

        /** Whether the session has ended. */
        public boolean isEnd() {
            return this == BUGGY || this == UNDECIDED || this == NO_BUG;
        }
    }

    /** A question or verdict without candidates or report (test doubles). */
    public Question(Kind kind, TreeNode node) {
        this(kind, node, List.of(), 0, null);
    }
}

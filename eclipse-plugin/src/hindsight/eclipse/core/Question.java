package hindsight.eclipse.core;

/**
 * What the session asks next.
 *
 * @param kind ask about {@code node}, or {@code node} is the buggy node, or nothing to ask now
 * @param node the node, null when the kind is {@link Kind#NONE}
 */
public record Question(Kind kind, TreeNode node) {
    /** The three outcomes of {@link TraceSession#nextQuestion()}. */
    public enum Kind {
        ASK, BUGGY, NONE
    }
}

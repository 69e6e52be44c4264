package hindsight.eclipse.core;

/**
 * One execution-tree node as the tree shows it.
 *
 * @param id the node id
 * @param label the call as text, e.g. {@code merge([1, 7], [1, 9]) = [1, 1, 7, 9]}
 * @param method the qualified method name
 * @param childCount the number of children known so far
 * @param complete whether the call has returned (only complete nodes are asked about)
 * @param answer the answer given about it, or null
 * @param entry the timestamp of its entry
 * @param exit the timestamp of its exit (or of its last event while incomplete)
 */
public record TreeNode(long id, String label, String method, int childCount, boolean complete, Answer answer,
        long entry, long exit) {
}

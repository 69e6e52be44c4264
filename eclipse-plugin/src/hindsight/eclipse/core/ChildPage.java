package hindsight.eclipse.core;

import java.util.List;

/**
 * A page of a node's children.
 *
 * @param offset index of the first node in the parent's child list
 * @param nodes the children on this page
 * @param total the number of children known so far
 */
public record ChildPage(int offset, List<TreeNode> nodes, int total) {
    public ChildPage {
        nodes = List.copyOf(nodes);
    }
}

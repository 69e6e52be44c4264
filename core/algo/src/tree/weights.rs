//! Subtree weights by coverage, as the jhyde paper draws them (section 4, MergeSort): a node's
//! weight is the number of entities its subtree's calls covered themselves, summed over the
//! calls (an entity covered by two calls counts twice). A recorded trace's weights can be
//! compared with the paper's figures once the agent sends blocks.

use super::execution::{CoverageKind, ExecutionTree};
use crate::ids::NodeId;

/// `(node, weight)` for every node below `from` (itself included), in preorder.
pub fn subtree_weights(
    tree: &ExecutionTree,
    from: NodeId,
    kind: CoverageKind,
) -> Vec<(NodeId, u64)> {
    let order: Vec<NodeId> = tree.preorder(from).collect();
    let mut weight: std::collections::HashMap<NodeId, u64> = order
        .iter()
        .map(|&n| (n, tree.coverage(n, kind).len() as u64))
        .collect();
    // Children come after their parent in preorder: add each node into its parent backwards.
    for &n in order.iter().rev() {
        if n == from {
            continue;
        }
        if let Some(p) = tree.parent(n) {
            let w = weight[&n];
            if let Some(pw) = weight.get_mut(&p) {
                *pw += w;
            }
        }
    }
    order.into_iter().map(|n| (n, weight[&n])).collect()
}

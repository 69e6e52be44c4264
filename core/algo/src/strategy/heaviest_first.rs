//! Heaviest first (Binks): top-down search that, among the candidates top-down would choose
//! from, asks the one with the biggest subtree.
//!
//! Definition used: among the askable nodes with no askable ancestor inside the region (the
//! top-down frontier, trusted/incomplete/don't-know nodes looked through), the one with the
//! largest weight w(a) = number of suspicious nodes in a's subtree; the first in call order on
//! ties.

use super::{Strategy, StrategyName};
use crate::ids::NodeId;
use crate::session::{Answer, ChildView, SuspiciousSet};

#[derive(Clone, Copy, Debug, Default)]
pub struct HeaviestFirst;

impl Strategy for HeaviestFirst {
    fn name(&self) -> StrategyName {
        StrategyName::HeaviestFirst
    }

    /// The top-down frontier (`strategy::frontier`) walked through the children's views that
    /// the set keeps between questions (`SuspiciousSet::children_view`), in preorder: beyond
    /// the persistence bound the children of a wide node are read from memory, not from a
    /// spilled page each.
    fn select(&mut self, set: &SuspiciousSet) -> Option<NodeId> {
        let root = set.region_root();
        let mut best: Option<(u32, NodeId)> = None;
        let mut children = Vec::new();
        // Children still to visit, the next in preorder on top. (Not skipped for a weight of
        // 0: a recording cut short leaves complete threads whose open calls never joined
        // their weights.)
        let mut stack: Vec<ChildView> = Vec::new();
        let mut push_children = |x: NodeId, stack: &mut Vec<ChildView>| {
            set.children_view(x, &mut children);
            let below = stack.len();
            stack.extend(children.iter().filter(|c| c.mark != Some(Answer::Valid)));
            stack[below..].reverse();
        };
        push_children(root, &mut stack);
        while let Some(c) = stack.pop() {
            if !c.is_askable(root) {
                push_children(c.id, &mut stack);
            } else if best.is_none_or(|(bw, _)| c.count > bw) {
                best = Some((c.count, c.id));
            }
        }
        best.map(|(_, x)| x)
    }
}
